// The long-lived commands (tx watch, webhook listen) stop on Ctrl+C or SIGTERM: the first signal asks them
// to finish what is in flight, a second ends the process at once. Signals have no stand-in in the context,
// so this is the one place those commands touch `process` for them.

/**
 * Calls `stop` with the first SIGINT or SIGTERM; a second one exits with 130. Listen before announcing
 * "press Ctrl+C": a signal that meets only another library's handler (signal-exit under the locks) is
 * raised again by it and kills the process without a clean stop. Returns the undo.
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => void): () => void {
  const force = () => process.exit(130);
  const onSignal = (signal: NodeJS.Signals) => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.once('SIGINT', force);
    process.once('SIGTERM', force);
    stop(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    for (const handler of [onSignal, force]) {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    }
  };
}
