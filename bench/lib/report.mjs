// Printing: aligned tables, the ✓/✗ goal list, figures with units.
import { loadavg, cpus } from 'node:os';

export const fmt = {
  int: (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—'),
  ms: (n, digits = 2) => (Number.isFinite(n) ? `${n.toFixed(digits)}` : '—'),
  signed: (n, digits = 2) => (Number.isFinite(n) ? `${n < 0 ? '−' : '+'}${Math.abs(n).toFixed(digits)}` : '—'),
  mb: (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(1) : '—'),
  ratio: (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '—'),
  kb: (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(1)} KB` : '—'),
};

/** Prints `rows` (objects) under `columns` ([header, key or fn, 'right'?]). */
export function printTable(title, columns, rows) {
  const cells = rows.map((row) => columns.map(([, get]) => String(typeof get === 'function' ? get(row) : (row[get] ?? ''))));
  const widths = columns.map(([header], i) => Math.max(header.length, ...cells.map((c) => c[i].length)));
  const line = (values) => values.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(columns.map(([h]) => h)));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

export class Goals {
  list = [];

  /** `pass` undefined means "not measured" (shown as ✗ with the reason). */
  add(name, pass, measured) {
    this.list.push({ name, pass: pass === true, measured });
  }

  print() {
    console.log('\nGoals');
    for (const g of this.list) console.log(`${g.pass ? '✓' : '✗'} ${g.name}: ${g.measured}`);
    const failed = this.list.filter((g) => !g.pass).length;
    console.log(`\n${this.list.length - failed} of ${this.list.length} goals met.`);
  }

  get allMet() {
    return this.list.every((g) => g.pass);
  }
}

/** The machine's state, printed with the figures: the cores are shared. */
export function machineLine() {
  const [one, five] = loadavg();
  const n = cpus().length;
  const note = one > n * 0.75 ? `  ⚠ the machine is busy (load ${one.toFixed(1)} on ${n} cores): figures are distorted` : '';
  return `${n} cores, load average ${one.toFixed(2)} (1 min) ${five.toFixed(2)} (5 min)${note}`;
}
