import { describe, expect, it } from 'vitest';
import { contrastRatio, labelColor, labelPalette, labelTextColor } from './label-colors';

describe('label colours', () => {
  it('writes dark text on light chips and white text on dark ones', () => {
    expect(labelTextColor('#fbca04')).toBe('#0f172a');
    expect(labelTextColor('#ffffff')).toBe('#0f172a');
    expect(labelTextColor('#5319e7')).toBe('#ffffff');
    expect(labelTextColor('#000000')).toBe('#ffffff');
  });

  it('reaches 4.5:1 for any colour an admin may pick', () => {
    const samples = [...labelPalette, '#808080', '#777777', '#ff0000', '#00ff00', '#0000ff', '#ff00ff', '#00ffff'];
    for (let grey = 0; grey < 256; grey += 5) {
      const hex = grey.toString(16).padStart(2, '0');
      samples.push(`#${hex}${hex}${hex}`);
    }
    for (const color of samples) expect(contrastRatio(color, labelTextColor(color))).toBeGreaterThanOrEqual(4.5);
  });

  it('falls back to a grey for a malformed colour', () => {
    expect(labelColor('red')).toBe('#94a3b8');
    expect(labelColor('#ABCDEF')).toBe('#abcdef');
  });
});
