// The terminal styles fsapi uses (the 16 basic colours, bold, dim), through chalk at its basic level.
// fsapi decides whether to colour itself (src/ui/io.ts: NO_COLOR, FORCE_COLOR, --no-color, a terminal)
// and hands chalk that decision as a level, so chalk's own colour probe is left out of the bundle
// (scripts/build.mjs, docs/startup.md). Styles are applied to text already made safe for the terminal
// (src/common/sanitize.ts), never the other way round: a sanitiser run over styled text would turn the
// escape codes into U+FFFD.
import { Chalk, type ChalkInstance } from 'chalk';

export type Paint = (text: string) => string;

export interface Styles {
  enabled: boolean;
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  magenta: Paint;
  cyan: Paint;
  /** White bold text on red: the loudest warning fsapi shows. */
  alarm: Paint;
}

function stylesOf(chalk: ChalkInstance, enabled: boolean): Styles {
  return {
    enabled,
    bold: chalk.bold,
    dim: chalk.dim,
    red: chalk.red,
    green: chalk.green,
    yellow: chalk.yellow,
    magenta: chalk.magenta,
    cyan: chalk.cyan,
    alarm: chalk.bold.bgRed.white,
  };
}

let painted: Styles | undefined;
let unpainted: Styles | undefined;

/** Styles that colour when `enabled` (chalk level 1: the basic 16 colours), and leave text as it is otherwise. */
export function styles(enabled: boolean): Styles {
  if (enabled) return (painted ??= stylesOf(new Chalk({ level: 1 }), true));
  return (unpainted ??= stylesOf(new Chalk({ level: 0 }), false));
}
