import { existsSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { PROJECT_DIR } from "../plan/constants";
import { RecordCache, loadRecords } from "../repo/load";
import { processWide } from "../process-wide";

type Listener = () => void;

interface Watch {
  listeners: Set<Listener>;
  stop(): void;
}

const watches = processWide("record-watches", () => new Map<string, Watch>());

/**
 * Tell `listener` whenever a record of `repo` changes: file-system events on the records folder,
 * debounced; where the folder cannot be watched, a poll of the files' identity and times.
 */
export function subscribeToChanges(repo: string, listener: Listener): () => void {
  let w = watches.get(repo);
  if (!w) {
    w = start(repo);
    watches.set(repo, w);
  }
  w.listeners.add(listener);
  return () => {
    const current = watches.get(repo);
    if (!current) return;
    current.listeners.delete(listener);
    if (current.listeners.size === 0) {
      current.stop();
      watches.delete(repo);
    }
  };
}

function start(repo: string): Watch {
  const listeners = new Set<Listener>();
  let timer: NodeJS.Timeout | undefined;
  const notify = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      for (const l of [...listeners]) l();
    }, 150);
  };
  const dir = join(repo, PROJECT_DIR);
  let watcher: FSWatcher | undefined;
  let poll: NodeJS.Timeout | undefined;
  try {
    if (!existsSync(dir)) throw new Error("no records folder yet");
    watcher = watch(dir, { recursive: true }, (_event, name) => {
      if (!name || String(name).endsWith(".yaml")) notify();
    });
    watcher.on("error", () => {
      watcher?.close();
      watcher = undefined;
      poll ??= startPolling(repo, notify);
    });
  } catch {
    poll = startPolling(repo, notify);
  }
  return {
    listeners,
    stop() {
      watcher?.close();
      clearInterval(poll);
      clearTimeout(timer);
    },
  };
}

function startPolling(repo: string, notify: () => void): NodeJS.Timeout {
  const cache = new RecordCache();
  loadRecords(repo, cache);
  let seen = cache.version;
  return setInterval(() => {
    loadRecords(repo, cache);
    if (cache.version !== seen) {
      seen = cache.version;
      notify();
    }
  }, 1000);
}
