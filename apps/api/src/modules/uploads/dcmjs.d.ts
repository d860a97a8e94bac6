// dcmjs ships no types; this covers the part the DICOM import (dicom.ts) and its tests use.
declare module 'dcmjs' {
  /** A data element as read: its value representation and values. */
  interface DicomElement {
    vr: string;
    Value?: unknown[];
  }
  type DenaturalizedDataset = Record<string, DicomElement>;
  /** Keyword-named values; multi-valued elements are arrays, pixel data a list of buffers. */
  type NaturalizedDataset = Record<string, unknown>;

  interface ReadOptions {
    ignoreErrors?: boolean;
    untilTag?: string | null;
    includeUntilTagValue?: boolean;
    noCopy?: boolean;
    forceStoreRaw?: boolean;
  }

  class DicomDict {
    constructor(meta: DenaturalizedDataset);
    meta: DenaturalizedDataset;
    dict: DenaturalizedDataset;
    write(options?: { allowInvalidVRLength?: boolean; fragmentMultiframe?: boolean }): ArrayBuffer;
  }

  const dcmjs: {
    data: {
      DicomDict: typeof DicomDict;
      DicomMessage: { readFile(buffer: ArrayBuffer, options?: ReadOptions): DicomDict };
      DicomMetaDictionary: {
        naturalizeDataset(dataset: DenaturalizedDataset): NaturalizedDataset;
        denaturalizeDataset(dataset: NaturalizedDataset): DenaturalizedDataset;
        uid(): string;
        /** Data elements by tag, written "(0040,A730)". */
        dictionary: Record<string, { vr: string } | undefined>;
      };
    };
    log: { setLevel(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent'): void };
  };
  export default dcmjs;
}
