import encodeQR from 'qr';

/** Pixels per module in the SVG's intrinsic size (the picture scales without loss anyway). */
const MODULE_PIXELS = 4;
/** The quiet zone the QR standard asks for around the code, in modules. */
const QUIET_ZONE = 4;

/**
 * An authenticator URI as an SVG QR code, for `totp.qr_code` of the factor enrolment. Like GoTrue, the answer is the
 * SVG markup itself: the standard client turns it into a `data:image/svg+xml;utf-8,` URI for an <img>. The code
 * is encoded by the `qr` package (zero dependencies) at GoTrue's error correction (high); this draws it as one
 * black path on a white square, so it scans on a dark page too. Colours are named: a `#` would end a data URI.
 */
export function qrCodeSvg(text: string): string {
  const modules = encodeQR(text, 'raw', { ecc: 'high', border: QUIET_ZONE });
  const size = modules.length;
  let path = '';
  for (const [y, row] of modules.entries()) {
    for (const [x, dark] of row.entries()) if (dark) path += `M${x} ${y}h1v1h-1z`;
  }
  const pixels = size * MODULE_PIXELS;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${pixels}" height="${pixels}" ` +
    `shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="white"/>` +
    `<path fill="black" d="${path}"/></svg>`
  );
}
