// The poster by the till: the store's name, its link's QR code and three short steps, A4 or A5.
import QRCode from 'qrcode';
import { POSTER_TEXT as P } from '../messages';

export type PosterSize = 'A4' | 'A5';

export function qrDataUrl(url: string, width = 480): Promise<string> {
  return QRCode.toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, width });
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Sizes in millimetres, so A5 is A4 scaled down. */
function posterHtml(storeName: string, url: string, qr: string, size: PosterSize): string {
  const k = size === 'A4' ? 1 : 0.7;
  const mm = (n: number) => `${(n * k).toFixed(1)}mm`;
  return `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><title>${esc(storeName)} ${esc(P.heading)}</title>
<style>
@page { size: ${size} portrait; margin: 0; }
* { box-sizing: border-box; }
html, body { margin: 0; }
body { font-family: "PingFang TC", "Noto Sans CJK TC", "Noto Sans TC", "Microsoft JhengHei", sans-serif; color: #111; }
.page { width: ${size === 'A4' ? '210mm' : '148mm'}; height: ${size === 'A4' ? '297mm' : '210mm'}; padding: ${mm(18)}; display: flex; flex-direction: column; align-items: center; text-align: center; }
.store { font-size: ${mm(13)}; font-weight: 700; margin: ${mm(6)} 0 0; }
h1 { font-size: ${mm(17)}; margin: ${mm(4)} 0 ${mm(6)}; letter-spacing: .08em; }
img { width: ${mm(120)}; height: ${mm(120)}; image-rendering: pixelated; }
ol { text-align: left; font-size: ${mm(7)}; line-height: 1.5; margin: ${mm(8)} 0 0; padding-left: ${mm(10)}; }
li { margin: ${mm(2)} 0; }
.foot { margin-top: auto; font-size: ${mm(4.5)}; color: #444; word-break: break-all; }
</style></head><body><div class="page">
<p class="store">${esc(storeName)}</p>
<h1>${esc(P.heading)}</h1>
<img src="${qr}" alt="${esc(P.heading)}">
<ol>${P.steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol>
<p class="foot">${esc(P.footer)}<br>${esc(url)}</p>
</div></body></html>`;
}

export async function printPoster(storeName: string, url: string, size: PosterSize): Promise<Window | null> {
  const qr = await qrDataUrl(url, 960);
  const w = window.open('', '_blank');
  if (!w) return null;
  w.document.open();
  w.document.write(posterHtml(storeName, url, qr, size));
  w.document.close();
  const img = w.document.querySelector('img');
  const go = () => {
    w.focus();
    w.print();
  };
  if (img && !img.complete) img.addEventListener('load', go, { once: true });
  else go();
  return w;
}
