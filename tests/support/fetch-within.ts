/**
 * `fetch` and its body as text, settled within `ms` whatever happens: the request is aborted at
 * the limit, and the answer is a TimeoutError even if the abort is not heard (a connection
 * accepted by a server that never answers must not hold a test past its limit: a hostile case once
 * waited 600 s on a server that had answered every other request).
 */
export async function fetchWithin(url: string, init: RequestInit, ms: number): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(Object.assign(new Error(`no answer within ${ms} ms`), { name: "TimeoutError" }));
    }, ms);
  });
  const answer = fetch(url, { ...init, signal: controller.signal }).then(async (r) => ({ status: r.status, text: await r.text() }));
  answer.catch(() => undefined);
  try {
    return await Promise.race([answer, limit]);
  } finally {
    clearTimeout(timer);
  }
}
