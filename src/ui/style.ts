// The few terminal styles fsapi uses (the 16 basic colours, bold, dim), written as ANSI SGR codes.
// Not chalk: fsapi decides colour itself (src/ui/io.ts: NO_COLOR, FORCE_COLOR, --no-color, a terminal),
// and chalk's colour-support probe alone took about 3 ms of every command's start-up (bench/startup.mjs).
// Behaves as chalk does at level 1: a style nested in another reopens the outer one after it closes, a
// line break closes and reopens the style so a cut line never bleeds, and empty text stays empty.

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

function sgr(open: number, close: number): Paint {
  const openCode = `\u001b[${open}m`;
  const closeCode = `\u001b[${close}m`;
  return (text) => {
    if (text === '') return '';
    let body = text.includes(closeCode) ? text.replaceAll(closeCode, closeCode + openCode) : text;
    if (body.includes('\n')) body = body.replace(/\r?\n/g, `${closeCode}$&${openCode}`);
    return openCode + body + closeCode;
  };
}

const plain: Paint = (text) => text;

const painted: Styles = {
  enabled: true,
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  magenta: sgr(35, 39),
  cyan: sgr(36, 39),
  alarm: (text) => painted.bold(sgr(41, 49)(sgr(37, 39)(text))),
};

const unpainted: Styles = {
  enabled: false,
  bold: plain,
  dim: plain,
  red: plain,
  green: plain,
  yellow: plain,
  magenta: plain,
  cyan: plain,
  alarm: plain,
};

/** Styles that colour when `enabled`, and leave text as it is otherwise. */
export function styles(enabled: boolean): Styles {
  return enabled ? painted : unpainted;
}
