/** The part of libheif-js's JavaScript wrapper that heic-worker.ts uses; the package's own types
 *  cover only the raw WebAssembly exports. */
declare module 'libheif-js/libheif-wasm/libheif-bundle.mjs' {
  interface HeifImage {
    get_width(): number;
    get_height(): number;
    is_primary(): boolean;
    /** Decodes into `target` (RGBA) and calls back with it, or with null when decoding failed. */
    display(
      target: { data: Uint8ClampedArray; width: number; height: number },
      done: (shown: { data: Uint8ClampedArray } | null) => void,
    ): void;
    free(): void;
  }
  interface LibHeif {
    HeifDecoder: new () => { decode(bytes: Uint8Array): HeifImage[] };
  }
  /** Instantiates the module; with its WebAssembly embedded, synchronously. */
  export default function libheif(): LibHeif;
}
