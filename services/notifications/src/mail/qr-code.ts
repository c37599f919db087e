import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/** About the width the e-mail shows the image at, so it stays sharp without being heavy. */
const TARGET_WIDTH_PX = 320;
/** Quiet zone around the symbol, in modules (scanners need some white around it). */
const MARGIN_MODULES = 2;

/**
 * The QR code of `text` as a black-on-white PNG, built in one synchronous pass of a few
 * milliseconds. E-mails go out one at a time per worker, so every millisecond here is paid by each
 * e-mail queued behind this one; `QRCode.toBuffer` (adaptive row filters, a streamed encoder) took
 * hundreds of milliseconds on a busy worker.
 */
export function qrCodePng(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = modules.size + MARGIN_MODULES * 2;
  const scale = Math.max(1, Math.round(TARGET_WIDTH_PX / side));
  const width = side * scale;
  const png = new PNG({ width, height: width });
  for (let y = 0; y < width; y += 1) {
    const row = Math.floor(y / scale) - MARGIN_MODULES;
    for (let x = 0; x < width; x += 1) {
      const column = Math.floor(x / scale) - MARGIN_MODULES;
      const inside = row >= 0 && column >= 0 && row < modules.size && column < modules.size;
      const value = inside && modules.get(row, column) ? 0 : 255;
      const offset = (y * width + x) * 4;
      png.data[offset] = value;
      png.data[offset + 1] = value;
      png.data[offset + 2] = value;
      png.data[offset + 3] = 255;
    }
  }
  // Grey levels without row filters: a two-colour picture compresses as well either way, and the
  // adaptive filter search costs far more than the rest of the e-mail.
  return PNG.sync.write(png, { colorType: 0, filterType: 0 });
}
