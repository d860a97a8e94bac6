// Types of scripts/build.mjs for the TypeScript that imports it (bench/start.bench.ts).
export interface BuildTarget {
  name: string;
  output: string;
  sources: string[];
  build(): Promise<void> | void;
}
export const targets: BuildTarget[];
export function staleReason(target: BuildTarget): string | undefined;
export function build(list: BuildTarget[], reasons?: Map<BuildTarget, string>): Promise<void>;
