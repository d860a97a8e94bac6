// Makes the installed app's icons (docs/decisions/installable-app.md) from the favicon: run it
// again after favicon.svg changes (`node scripts/make-app-icons.mjs`); the PNGs are committed.
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/public');
const favicon = await readFile(path.join(publicDir, 'favicon.svg'), 'utf8');
const teal = /fill="(#[0-9a-f]{6})"/i.exec(favicon)?.[1];
const tooth = /<path[^>]* d="([^"]+)"/.exec(favicon)?.[1];
if (teal === undefined || tooth === undefined) {
  throw new Error('favicon.svg no longer has the background colour and tooth path this reads.');
}

// A maskable icon is cut to any shape inside its square; only the middle circle of 80% of its
// width is sure to show, so the background fills the square and the tooth (52 × 48 units, centre
// 32, 34) is scaled to 0.6 to sit well inside that circle.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" fill="${teal}"/>
  <path transform="translate(12.8 11.6) scale(0.6)" fill="#ffffff" d="${tooth}"/>
</svg>`;

const iconsDir = path.join(publicDir, 'icons');
await mkdir(iconsDir, { recursive: true });
const render = (svg, size, name) =>
  sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(iconsDir, name));
await Promise.all([
  render(favicon, 192, 'icon-192.png'),
  render(favicon, 512, 'icon-512.png'),
  render(maskable, 512, 'icon-512-maskable.png'),
]);
