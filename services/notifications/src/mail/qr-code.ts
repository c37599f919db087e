import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/** About the width the e-mail shows the image at, so it stays sharp without being heavy. */
const TARGET_WIDTH_PX = 320;
/** Quiet zone around the symbol, in modules (scanners need some white around it). */
const MARGIN_MODULES = 2;
const BLACK = 0;
const WHITE = 255;

/**
 * The QR code of `text` as a black-on-white PNG, built in one synchronous pass of a few
 * milliseconds. E-mails go out one at a time per worker, so every millisecond here is paid by each
 * e-mail queued behind this one.
 * - The pixels are grey levels, one byte each, handed to pngjs as they are (`inputColorType` equal
 *   to `colorType`): its conversion from RGBA reads every pixel through a function call and took
 *   about 200 ms per code on a busy worker, more than all the rest of the e-mail.
 * - No row filters: a two-colour picture compresses as well either way, and the adaptive filter
 *   search costs far more than the rest of the e-mail (`QRCode.toBuffer` uses it).
 */
export function qrCodePng(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = modules.size + MARGIN_MODULES * 2;
  const scale = Math.max(1, Math.round(TARGET_WIDTH_PX / side));
  const width = side * scale;
  const pixels = Buffer.alloc(width * width, WHITE);
  for (let row = 0; row < modules.size; row += 1) {
    // One row of pixels for this row of modules, then copied to the module's other pixel rows.
    const top = (row + MARGIN_MODULES) * scale * width;
    for (let column = 0; column < modules.size; column += 1) {
      if (!modules.get(row, column)) continue;
      const left = top + (column + MARGIN_MODULES) * scale;
      pixels.fill(BLACK, left, left + scale);
    }
    for (let copy = 1; copy < scale; copy += 1) pixels.copy(pixels, top + copy * width, top, top + width);
  }
  return PNG.sync.write({ width, height: width, data: pixels } as PNG, {
    colorType: 0,
    inputColorType: 0,
    filterType: 0,
  });
}
