/** How stored bytes are written for people, in the units of docs/product/records.md#storage-quota
 *  (1GB = 1024³ bytes). */
export function formatStorage(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Whole numbers stay whole (1GB); others keep one decimal (2.3GB), as the plan table writes them.
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown}${units[unit] ?? 'GB'}`;
}
