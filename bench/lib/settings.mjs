// Settings of a benchmark run: environment variables BENCH_<NAME>, overridden by
// command-line flags --<name>=<value> (for example `npm run bench -- --duration=20`).
const DEFAULTS = {
  firstWarmup: 5, // seconds of load per target and mode before the first load row
  warmup: 3, // seconds of warm-up before each measured load row
  duration: 10, // seconds of each measured load row
  repeats: 1, // rounds of load rows; each row shows its best round (for a busy machine)
  connections: '32,128',
  probeCount: 500, // sequential requests of the unloaded probe, per target and mode (0: no probe)
  probeWarmup: 100,
  streams: 1000, // concurrent slow streams of the memory run (0: no memory run)
  settle: 5, // seconds of quiet after a memory round before "after" is read
  soakSeconds: 600,
  soakShare: 0.8, // share of the goal load the soak runs at
  logs: 1_000_000,
  tokens: 10_000,
  channels: 1_000,
  dbRepeats: 20, // runs of each console query of the database benchmark
  consoleLoads: 7, // counted cold loads of each timed console route (sign-in form, channel rows)
  consoleChannels: 200, // channels in the list whose rows are timed
  profile: 0, // 1: run the gateway (logging on) with --cpu-prof and print where its time goes
  base: 'HEAD', // the A/B suite's base revision (the current build is the working tree)
  abRounds: 5, // rounds per mode of the A/B suite
  abConnections: 64, // connections per gateway in the A/B suite
};

const camel = (s) => s.replace(/[-_]([a-z])/g, (_, c) => c.toUpperCase());
const upperSnake = (s) => s.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

export function readSettings(argv) {
  const settings = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) {
    const fromEnv = process.env[`BENCH_${upperSnake(key)}`];
    if (fromEnv !== undefined && fromEnv !== '') settings[key] = fromEnv;
  }
  const suites = [];
  for (const arg of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(arg);
    if (m && camel(m[1]) in DEFAULTS) settings[camel(m[1])] = m[2];
    else if (m) throw new Error(`unknown setting ${arg}; known: ${Object.keys(DEFAULTS).join(', ')}`);
    else suites.push(arg);
  }
  for (const [key, value] of Object.entries(settings)) {
    if (typeof DEFAULTS[key] === 'number') {
      settings[key] = Number(value);
      if (!Number.isFinite(settings[key]) || settings[key] < 0) throw new Error(`setting ${key} must be a number ≥ 0, got ${value}`);
    }
  }
  settings.connectionList = String(settings.connections)
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
  return { settings, suites };
}
