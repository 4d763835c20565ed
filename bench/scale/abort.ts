// A scale run stopped by Ctrl-C or a SIGTERM must still stop what it started: its PostgreSQL and
// Temporal server hold gigabytes in a temporary folder. Openings in flight fail once the client's
// connection is closed (the gRPC client's retry timer throws where nothing can catch it); those
// errors are said and the stop goes on to its end, then the process exits with 130.

export function stopOnSignal(stop: () => Promise<void>, say: (line: string) => void): void {
  let stopping = false;
  const abort = (signal: NodeJS.Signals) => {
    if (stopping) return say(`${signal}: already stopping`);
    stopping = true;
    say(`${signal}: stopping what this run started`);
    const meanwhile = (err: unknown) => say(`while stopping: ${err instanceof Error ? err.message : String(err)}`);
    process.on('uncaughtException', meanwhile);
    process.on('unhandledRejection', meanwhile);
    void stop()
      .catch(meanwhile)
      .finally(() => process.exit(130));
  };
  // Once each: a second Ctrl-C ends the process at once, as it would without this.
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
}
