// Start and stop a real `tarok serve` (from the repository's virtualenv) for the tests.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: the nearest directory above this file with a pyproject.toml. */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "pyproject.toml"))) {
    const parent = resolve(dir, "..");
    if (parent === dir) throw new Error("no pyproject.toml above the tests");
    dir = parent;
  }
  return dir;
}

export const ROOT = repositoryRoot();
const TAROK = process.env.TAROK_BIN ?? join(ROOT, ".venv", "bin", "tarok");
const START_TIMEOUT_MS = 60_000;

export interface Server {
  /** Base URL of the gRPC port, e.g. "http://localhost:41234". */
  readonly grpcUrl: string;
  readonly port: number;
  /** Base URL of the HTTP port (Connect, gRPC-Web), e.g. "http://127.0.0.1:41235". */
  readonly httpUrl: string;
  stop(): Promise<void>;
}

/** Temporary storage for one test file's servers (SQLite file and signing secret). */
export class ServerHome {
  readonly dir = mkdtempSync(join(tmpdir(), "tarok-ts-"));
  readonly store = `sqlite:///${join(this.dir, "tarok.db")}`;
  readonly secret = "ts-test-secret-" + Math.random().toString(36).slice(2);

  /** Start a server on `port` (0: a free one) over this home's store and secret. */
  start(port = 0, httpPort = 0, extra: readonly string[] = []): Promise<Server> {
    return startServer([
      ...["--store", this.store, "--secret", this.secret],
      ...["--port", String(port), "--http-port", String(httpPort)],
      ...extra,
    ]);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function startServer(args: readonly string[]): Promise<Server> {
  // a 0.1 s clock floor: the lobby test plays a table on a 300 ms clock (the default is 1 s)
  const base = ["serve", "--host", "127.0.0.1", "--heartbeat", "2", "--min-time-per-move", "0.1"];
  const child = spawn(TAROK, [...base, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`tarok serve did not start in time:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on [^\s]+:(\d+)/.exec(output);
      const http = /HTTP \(Connect, gRPC-Web, gRPC\) on [^\s]+:(\d+)/.exec(output);
      if (match === null || http === null) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stdout?.resume();
      const port = Number(match[1]);
      resolvePromise({
        grpcUrl: `http://127.0.0.1:${port}`,
        port,
        httpUrl: `http://127.0.0.1:${http[1]}`,
        stop: () => stopChild(child),
      });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`tarok serve exited with ${String(code)}:\n${output}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolvePromise();
    });
    child.kill("SIGTERM");
  });
}
