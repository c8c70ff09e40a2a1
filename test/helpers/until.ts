// Waiting for an event, never for a time: `probe` is asked every 50 ms until it gives a value (anything but
// undefined or false), which is returned; past `timeoutMs` (a bound against a hang, not a measure of speed)
// the test fails naming what it waited for.
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
