import { describe, expect, it } from 'vitest';
import { dicomUploadLimit, unsupportedImageMessage } from '@dental/contracts';
import { choosePhoto } from './choose-image';

/** The start of a DICOM Part 10 file: 128 bytes of preamble, then 'DICM'. */
function dicomBytes(length = 200): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  bytes.set(new TextEncoder().encode('DICM'), 128);
  return bytes;
}

describe('choosePhoto', () => {
  it('takes a DICOM file by its bytes, even without a name or type, as application/dicom', async () => {
    const bytes = dicomBytes();
    const chosen = await choosePhoto(new File([bytes], 'IM000001'));
    expect(chosen).toMatchObject({ dicom: true });
    if ('error' in chosen) throw new Error(chosen.error);
    const [header, payload] = chosen.dataUrl.split(',');
    expect(header).toBe('data:application/dicom;base64');
    expect(atob(payload ?? '')).toHaveLength(bytes.length);
  });

  it('refuses a DICOM file over 10 MB before sending it', async () => {
    const big = dicomBytes(dicomUploadLimit.maxBytes + 1);
    expect(await choosePhoto(new File([big], 'big.dcm'))).toEqual({
      error: dicomUploadLimit.message,
    });
  });

  it('still takes images, and refuses other files', async () => {
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', {
      type: 'image/png',
    });
    expect(await choosePhoto(png)).toMatchObject({ dicom: false });
    const text = new File(['hello'], 'a.dcm', { type: 'text/plain' });
    expect(await choosePhoto(text)).toEqual({ error: unsupportedImageMessage });
  });
});
