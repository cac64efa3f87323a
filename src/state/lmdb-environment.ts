/**
 * One LMDB environment per directory in this process, shared by everything kept there (the
 * payment store and the watch state both live in STATE_DIR).
 *
 * Two `open()` calls on one directory in one process get two handles with a write thread each
 * on the same environment. Opening a database is a synchronous write transaction on the main
 * thread, so opening one through the second handle while the first has a write in flight
 * freezes the process: the write thread holds LMDB's writer lock and waits for the main thread
 * to run its transaction, while the main thread waits for the lock. One handle per directory
 * serialises both through the same write thread, which lmdb handles.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { open, type RootDatabase } from 'lmdb';

/** A use of a shared environment: close() ends this use, and the last one closes the environment. */
export interface EnvironmentLease {
  readonly root: RootDatabase;
  close(): Promise<void>;
}

interface Shared {
  readonly root: RootDatabase;
  users: number;
}

const environments = new Map<string, Shared>();
/** Environments being closed: a new use of their directory waits for that first. */
const closing = new Map<string, Promise<void>>();

/** Opens (creating the directory when missing) or joins the environment at `path`. */
export async function useEnvironment(path: string): Promise<EnvironmentLease> {
  // A directory always, even when the name has an extension (lmdb would make that a file).
  mkdirSync(path, { recursive: true });
  const key = realpathSync(path);
  await closing.get(key);
  let shared = environments.get(key);
  if (shared === undefined) {
    shared = { root: open({ path: key, noSubdir: false }), users: 0 };
    environments.set(key, shared);
  }
  shared.users++;
  return lease(key, shared);
}

function lease(key: string, shared: Shared): EnvironmentLease {
  let ended: Promise<void> | undefined;
  const end = async (): Promise<void> => {
    shared.users--;
    // What this use wrote is on disk before its close resolves, whoever closes the environment.
    await shared.root.flushed;
    // A use that joined meanwhile keeps it open (it closes it when it ends), and of uses ending
    // together only one closes it.
    if (shared.users > 0 || environments.get(key) !== shared) return;
    environments.delete(key);
    const done = shared.root.close();
    closing.set(key, done);
    try {
      await done;
    } finally {
      if (closing.get(key) === done) closing.delete(key);
    }
  };
  return {
    root: shared.root,
    close: () => {
      ended ??= end();
      return ended;
    },
  };
}
