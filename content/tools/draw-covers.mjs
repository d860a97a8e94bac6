#!/usr/bin/env node
// Draws every cover image for content/knowledge and content/suppliers from the motif table below,
// so the covers are reproducible and contain nothing we did not write ourselves.
//
//   node content/tools/draw-covers.mjs          write all covers
//   node content/tools/draw-covers.mjs --check  exit 1 if a cover on disk differs or is missing
//
// Both modes also exit 1 when a covers folder holds an SVG that no page names.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTENT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_BYTES = 4096;

// Calm palettes: a pale background and a soft halo behind the motif; INK holds the drawing colours.
const PALETTES = {
  mint: { bg: '#e8f5f0', halo: '#cfeae0' },
  sky: { bg: '#e8f1fa', halo: '#cfe0f3' },
  lilac: { bg: '#f0ecf8', halo: '#ddd3f0' },
  sand: { bg: '#f8f2e6', halo: '#efe1c6' },
  blush: { bg: '#fbeeee', halo: '#f3d6d6' },
};
const INK = {
  tooth: '#ffffff',
  outline: '#2f4858',
  teal: '#2a9d8f',
  blue: '#4a7fb5',
  coral: '#e76f51',
  gold: '#e9b949',
  gum: '#e8a0a8',
  grey: '#8a9ba8',
};

const r = (n) => Math.round(n * 10) / 10;
const at = (x, y, s = 1, deg = 0) =>
  `translate(${r(x)} ${r(y)})${deg ? ` rotate(${deg})` : ''}${s === 1 ? '' : ` scale(${s})`}`;
const group = (transform, body) => `<g transform="${transform}">${body}</g>`;
const outlineStroke = `stroke="${INK.outline}" stroke-width="6" stroke-linecap="round"`;

// A molar outline centred on (0, 0), about 120 wide and 160 tall; every tooth motif reuses it.
const TOOTH_PATH =
  'M-60-50C-60-80-30-85-15-75C-5-68 5-68 15-75C30-85 60-80 60-50C60-20 50 0 45 30C40 60 35 80 25 80' +
  'C12 80 12 40 0 40C-12 40-12 80-25 80C-35 80-40 60-45 30C-50 0-60-20-60-50Z';
// The crown alone, for the implant motif where a screw replaces the roots.
const CROWN_PATH =
  'M-60-50C-60-80-30-85-15-75C-5-68 5-68 15-75C30-85 60-80 60-50C60-20 55 0 50 10H-50C-55 0-60-20-60-50Z';
const tooth = (x, y, s = 1, fill = INK.tooth, deg = 0) =>
  group(
    at(x, y, s, deg),
    `<path d="${TOOTH_PATH}" fill="${fill}" stroke="${INK.outline}" stroke-width="${r(6 / s)}"/>`,
  );

const sparkle = (x, y, s, fill) =>
  group(at(x, y, s), `<path d="M0-20L5-5L20 0L5 5L0 20L-5 5L-20 0L-5-5Z" fill="${fill}"/>`);

// A toothbrush lying along the x axis with its head at (0, 0) and the handle to the right; the
// bristles point up, or down when `down` is set.
const toothbrush = (x, y, deg, handle, down = false) =>
  group(
    `${at(x, y, 1, deg)}${down ? ' scale(1 -1)' : ''}`,
    `<rect x="-10" y="0" width="240" height="22" rx="11" fill="${handle}"/>` +
      `<rect x="0" y="-30" width="70" height="30" rx="4" fill="${INK.tooth}" stroke="${INK.outline}" stroke-width="4"/>` +
      `<path d="M15-30V0M30-30V0M45-30V0M60-30V0" stroke="${INK.grey}" stroke-width="3"/>`,
  );

const gumLine = (x, y, w) =>
  `<path d="M${x} ${y}q${w / 4}-30 ${w / 2} 0t${w / 2} 0v40h-${w}z" fill="${INK.gum}"/>`;

const MOTIFS = {
  // Knowledge articles
  brushing: {
    palette: 'mint',
    title: 'A toothbrush cleaning a tooth',
    draw: () =>
      tooth(270, 205, 1.1) +
      toothbrush(235, 76, -6, INK.teal, true) +
      sparkle(420, 250, 0.8, INK.gold),
  },
  'flossing-and-interdental-cleaning': {
    palette: 'sky',
    title: 'Floss passing between two teeth',
    draw: () =>
      tooth(250, 185, 1) +
      tooth(390, 185, 1) +
      `<path d="M320 40C300 120 340 200 320 330" fill="none" stroke="${INK.blue}" stroke-width="6" stroke-linecap="round"/>`,
  },
  'tooth-decay': {
    palette: 'sand',
    title: 'A tooth with a dark spot of decay',
    draw: () =>
      tooth(320, 185, 1.3) +
      '<path d="M300 150c10-14 36-10 40 6c4 18-20 30-34 22c-10-6-12-18-6-28z" fill="#6b4f3a"/>' +
      '<circle cx="355" cy="128" r="7" fill="#a07a5a"/>',
  },
  'wisdom-teeth': {
    palette: 'lilac',
    title: 'A tilted wisdom tooth below the gum behind two molars',
    draw: () =>
      '<rect x="110" y="190" width="420" height="140" rx="20" fill="#f6e2e4"/>' +
      `<path d="M117 190H523" stroke="${INK.gum}" stroke-width="14" stroke-linecap="round"/>` +
      tooth(210, 160, 0.75) +
      tooth(320, 160, 0.75) +
      tooth(450, 258, 0.65, INK.tooth, -40),
  },
  'gum-disease': {
    palette: 'blush',
    title: 'Teeth with red, swollen gums',
    draw: () =>
      tooth(230, 170, 0.85) +
      tooth(330, 170, 0.85) +
      tooth(430, 170, 0.85) +
      gumLine(150, 225, 360) +
      `<circle cx="280" cy="230" r="8" fill="${INK.coral}"/><circle cx="380" cy="232" r="8" fill="${INK.coral}"/>`,
  },
  'tooth-sensitivity': {
    palette: 'sky',
    title: 'A tooth with a snowflake and a jolt of sensitivity',
    draw: () =>
      tooth(300, 190, 1.2) +
      `<path d="M430 80l-30 60h30l-30 60" fill="none" stroke="${INK.gold}" stroke-width="8" stroke-linejoin="round"/>` +
      group(
        at(160, 110),
        `<path d="M0-34V34M-30-17L30 17M-30 17L30-17" stroke="${INK.blue}" stroke-width="6" stroke-linecap="round"/>`,
      ),
  },
  'teeth-whitening': {
    palette: 'mint',
    title: 'A bright tooth with sparkles',
    draw: () =>
      tooth(320, 190, 1.3) +
      sparkle(450, 110, 1.2, INK.gold) +
      sparkle(190, 140, 0.8, INK.teal) +
      sparkle(430, 270, 0.6, INK.teal),
  },
  'childrens-teeth': {
    palette: 'sand',
    title: 'A small smiling tooth with a child-sized toothbrush',
    draw: () =>
      tooth(260, 195, 0.95) +
      `<path d="M235 175q25 22 50 0" fill="none" ${outlineStroke}/>` +
      `<circle cx="240" cy="150" r="6" fill="${INK.outline}"/><circle cx="280" cy="150" r="6" fill="${INK.outline}"/>` +
      toothbrush(345, 140, 60, INK.coral, true),
  },
  'dental-x-ray-safety': {
    palette: 'sky',
    title: 'A dental X-ray image showing two teeth',
    draw: () =>
      '<rect x="170" y="60" width="300" height="240" rx="20" fill="#2f4858"/>' +
      tooth(270, 175, 0.8, '#cfe0f3') +
      tooth(370, 175, 0.8, '#cfe0f3') +
      `<circle cx="470" cy="60" r="26" fill="${INK.gold}"/>`,
  },
  'implants-and-bridges': {
    palette: 'lilac',
    title: 'A dental implant screw supporting a crown',
    draw: () =>
      `<rect x="300" y="180" width="40" height="135" rx="8" fill="${INK.grey}"/>` +
      `<path d="M296 250h48M296 272h48M296 294h48" ${outlineStroke}/>` +
      gumLine(150, 210, 340) +
      group(
        at(320, 172, 0.85),
        `<path d="${CROWN_PATH}" fill="${INK.tooth}" stroke="${INK.outline}" stroke-width="7"/>`,
      ),
  },
  orthodontics: {
    palette: 'mint',
    title: 'A row of teeth with braces',
    draw: () =>
      [180, 275, 370, 465].map((x) => tooth(x, 185, 0.75)).join('') +
      [180, 275, 370, 465]
        .map(
          (x) => `<rect x="${x - 14}" y="145" width="28" height="28" rx="5" fill="${INK.grey}"/>`,
        )
        .join('') +
      `<path d="M140 159H505" stroke="${INK.blue}" stroke-width="6"/>`,
  },
  'dental-anxiety': {
    palette: 'lilac',
    title: 'A calm tooth resting beside gentle waves',
    draw: () =>
      tooth(260, 190, 1.05) +
      `<path d="M230 165q10 8 20 0M270 165q10 8 20 0M235 200q25 16 50 0" fill="none" ${outlineStroke}/>` +
      `<path d="M380 130q25-20 50 0t50 0M380 180q25-20 50 0t50 0M380 230q25-20 50 0t50 0" fill="none" stroke="${INK.teal}" stroke-width="6" stroke-linecap="round"/>`,
  },

  // Supplier pages and the supplier topic
  'oral-hygiene-suppliers': {
    palette: 'mint',
    title: 'A toothbrush, a tube of toothpaste and floss',
    draw: () =>
      toothbrush(140, 130, 0, INK.teal) +
      `<path d="M170 230h210l30 25l-30 25H170z" fill="${INK.blue}"/><rect x="410" y="243" width="24" height="24" fill="${INK.grey}"/>` +
      `<circle cx="500" cy="170" r="45" fill="${INK.tooth}" stroke="${INK.outline}" stroke-width="6"/><circle cx="500" cy="170" r="14" fill="${INK.coral}"/>`,
  },
  'manual-toothbrushes': {
    palette: 'sky',
    title: 'Two manual toothbrushes',
    draw: () => toothbrush(170, 140, 0, INK.blue) + toothbrush(170, 240, 0, INK.coral),
  },
  'electric-toothbrushes': {
    palette: 'lilac',
    title: 'An electric toothbrush standing on its charger',
    draw: () =>
      `<rect x="285" y="110" width="70" height="190" rx="30" fill="${INK.teal}"/>` +
      `<rect x="308" y="40" width="24" height="80" rx="10" fill="${INK.grey}"/>` +
      `<rect x="300" y="20" width="40" height="40" rx="16" fill="${INK.tooth}" stroke="${INK.outline}" stroke-width="5"/>` +
      `<circle cx="320" cy="180" r="13" fill="${INK.tooth}"/><rect x="250" y="300" width="140" height="24" rx="10" fill="${INK.outline}"/>`,
  },
  'fluoride-toothpaste': {
    palette: 'sand',
    title: 'A tube of toothpaste with a ribbon of paste',
    draw: () =>
      `<path d="M150 150h260l40 30l-40 30H150q-20-30 0-60z" fill="${INK.blue}"/>` +
      `<rect x="450" y="165" width="34" height="30" rx="4" fill="${INK.grey}"/>` +
      `<rect x="200" y="168" width="120" height="24" rx="6" fill="${INK.tooth}"/>` +
      `<path d="M490 180q40-10 40 20t-40 20" fill="none" stroke="${INK.teal}" stroke-width="14" stroke-linecap="round"/>`,
  },
  'interdental-brushes-and-floss': {
    palette: 'mint',
    title: 'An interdental brush and a loop of floss',
    draw: () =>
      `<rect x="130" y="200" width="200" height="18" rx="9" fill="${INK.teal}"/>` +
      `<path d="M330 209H420" stroke="${INK.grey}" stroke-width="4"/>` +
      `<path d="${Array.from({ length: 9 }, (_, i) => `M${338 + i * 10} 194v30`).join('')}" stroke="${INK.outline}" stroke-width="3"/>` +
      `<circle cx="480" cy="130" r="55" fill="${INK.tooth}" stroke="${INK.outline}" stroke-width="6"/>` +
      `<circle cx="480" cy="130" r="20" fill="${INK.blue}"/>` +
      `<path d="M520 160C560 220 470 260 430 300" fill="none" stroke="${INK.blue}" stroke-width="5" stroke-linecap="round"/>`,
  },
  'water-flossers': {
    palette: 'sky',
    title: 'A water flosser sending a jet of water',
    draw: () =>
      `<rect x="200" y="150" width="80" height="160" rx="26" fill="${INK.blue}"/>` +
      `<rect x="228" y="90" width="24" height="70" rx="8" fill="${INK.grey}"/>` +
      `<path d="M240 90L320 50" ${outlineStroke}/>` +
      `<path d="M330 45q60-20 120 10M330 55q70 0 130 40" fill="none" stroke="${INK.teal}" stroke-width="5" stroke-linecap="round" stroke-dasharray="10 10"/>` +
      `<circle cx="240" cy="220" r="12" fill="${INK.tooth}"/>`,
  },
  mouthwash: {
    palette: 'mint',
    title: 'A bottle of mouthwash and a small cup',
    draw: () =>
      `<rect x="220" y="110" width="130" height="200" rx="24" fill="${INK.teal}"/>` +
      `<rect x="255" y="70" width="60" height="44" rx="8" fill="${INK.outline}"/>` +
      `<rect x="240" y="170" width="90" height="70" rx="10" fill="${INK.tooth}"/>` +
      `<path d="M400 220h80l-10 90h-60z" fill="${INK.tooth}" stroke="${INK.outline}" stroke-width="5"/>` +
      `<path d="M406 250h68" stroke="${INK.teal}" stroke-width="8"/>`,
  },
  'tongue-cleaners': {
    palette: 'blush',
    title: 'A curved tongue scraper',
    draw: () =>
      `<path d="M190 300V140q0-90 130-90t130 90v160" fill="none" stroke="${INK.grey}" stroke-width="22" stroke-linecap="round"/>` +
      `<rect x="165" y="250" width="50" height="70" rx="14" fill="${INK.coral}"/>` +
      `<rect x="425" y="250" width="50" height="70" rx="14" fill="${INK.coral}"/>`,
  },
  'childrens-oral-care': {
    palette: 'sand',
    title: 'A child-sized toothbrush beside a small smiling tooth',
    draw: () =>
      toothbrush(170, 250, -15, INK.gold) +
      tooth(440, 190, 0.75) +
      `<path d="M420 185q20 16 40 0" fill="none" ${outlineStroke}/>` +
      sparkle(520, 90, 1.2, INK.coral) +
      sparkle(200, 110, 0.8, INK.blue),
  },
};

const svgFor = (slug) => {
  const motif = MOTIFS[slug];
  const palette = PALETTES[motif.palette];
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360" width="640" height="360" role="img">' +
    `<title>${motif.title}</title>` +
    `<rect width="640" height="360" fill="${palette.bg}"/>` +
    `<circle cx="320" cy="180" r="150" fill="${palette.halo}"/>` +
    motif.draw() +
    '</svg>\n';
  if (Buffer.byteLength(svg) > MAX_BYTES) {
    throw new Error(`${slug}.svg is ${Buffer.byteLength(svg)} bytes, over ${MAX_BYTES}`);
  }
  return svg;
};

// Every cover named in a page's front matter must have a motif, so no page points at a missing file.
// The supplier topic page names its picture under `image:`; every other page under `cover:`.
const coverOf = (folder, name) => {
  const key = name === '_topic.md' ? 'image' : 'cover';
  const text = readFileSync(join(CONTENT, folder, name), 'utf8');
  const match = new RegExp(`^${key}: *['"]?([\\w.-]+\\.svg)['"]? *$`, 'm').exec(text);
  if (!match) throw new Error(`${folder}/${name} names no ${key}: *.svg`);
  return join(folder, 'covers', match[1]);
};
const targets = ['knowledge', 'suppliers'].flatMap((folder) =>
  readdirSync(join(CONTENT, folder))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => coverOf(folder, name)),
);

const check = process.argv.includes('--check');
const stale = [];
for (const target of targets) {
  const slug = target.slice(target.lastIndexOf('/') + 1, -'.svg'.length);
  if (!Object.hasOwn(MOTIFS, slug)) throw new Error(`no motif for ${target}`);
  const svg = svgFor(slug);
  const path = join(CONTENT, target);
  if (check) {
    if (!existsSync(path) || readFileSync(path, 'utf8') !== svg) stale.push(target);
  } else {
    writeFileSync(path, svg);
  }
}
const orphans = ['knowledge/covers', 'suppliers/covers'].flatMap((folder) =>
  readdirSync(join(CONTENT, folder))
    .filter((name) => name.endsWith('.svg'))
    .map((name) => join(folder, name))
    .filter((file) => !targets.includes(file)),
);
if (stale.length > 0) {
  console.error(
    `Covers out of date (run node content/tools/draw-covers.mjs):\n  ${stale.join('\n  ')}`,
  );
}
if (orphans.length > 0) {
  console.error(`Covers no page names (delete them):\n  ${orphans.join('\n  ')}`);
}
if (stale.length > 0 || orphans.length > 0) process.exit(1);
console.log(`${check ? 'Checked' : 'Wrote'} ${targets.length} covers.`);
