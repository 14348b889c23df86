/**
 * A label's chip is drawn in the label's own colour (any `#rrggbb` an admin picks), so its text
 * colour is chosen per label: near-black or white, whichever stands out more (WCAG contrast).
 * One of the two always reaches 4.5:1, in the light theme and the dark alike.
 */

const HEX = /^#([0-9a-f]{6})$/i;

/** The label's colour as `#rrggbb`, or a neutral grey for anything malformed. */
export function labelColor(color: string | null | undefined): string {
  return color && HEX.test(color) ? color.toLowerCase() : '#94a3b8';
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of `#rrggbb`. */
export function luminance(color: string): number {
  const hex = labelColor(color).slice(1);
  const [r, g, b] = [0, 2, 4].map((at) => channel(Number.parseInt(hex.slice(at, at + 2), 16)));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/** The WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

export const DARK_TEXT = '#0f172a';
export const LIGHT_TEXT = '#ffffff';

/**
 * The text colour for a chip of `background`: the one of near-black and white that contrasts
 * more; pure black for the few mid tones where neither reaches 4.5:1 (black always does there).
 */
export function labelTextColor(background: string): string {
  const dark = contrastRatio(background, DARK_TEXT);
  const light = contrastRatio(background, LIGHT_TEXT);
  if (Math.max(dark, light) < 4.5) return '#000000';
  return dark >= light ? DARK_TEXT : LIGHT_TEXT;
}

/** Colours offered when creating a label (any other can be typed). */
export const labelPalette = [
  '#d73a4a',
  '#e99695',
  '#f9d0c4',
  '#fbca04',
  '#0e8a16',
  '#c2e0c6',
  '#1d76db',
  '#bfd4f2',
  '#5319e7',
  '#d4c5f9',
  '#006b75',
  '#0f172a',
] as const;
