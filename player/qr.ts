import QRCode from 'qrcode';

/** An SVG of a QR code for `text` (the MIT `qrcode` encoder; drawn here, dark modules on white, with a quiet zone). */
export function qrSvg(text: string, quiet = 4): string {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  let path = '';
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (modules.get(y, x)) path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  const full = size + quiet * 2;

  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" shape-rendering="crispEdges" role="img" aria-label="QR code"><rect width="100%" height="100%" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
