/** The file as a `data:<type>;base64,…` link, the form the API takes uploads in
 *  (docs/product/general.md#calls-and-errors). */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener('load', () => {
      resolve(typeof reader.result === 'string' ? reader.result : '');
    });
    reader.addEventListener('error', () => {
      reject(reader.error ?? new Error('The file could not be read.'));
    });
    reader.readAsDataURL(file);
  });
}
