export const REQUEST_ID_HEADER = "x-request-id";
export function withRequestId(line: object, id: string) {
  return { ...line, request_id: id };
}
