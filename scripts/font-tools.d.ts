/** The web build's font tools (scripts/web-fonts.ts) ship no types; only what the build calls is declared. */
declare module "subset-font" {
  interface SubsetOptions {
    targetFormat?: "truetype" | "woff" | "woff2" | "sfnt";
    keepFeatures?: string[];
    noLayoutClosure?: boolean;
  }
  export default function subsetFont(font: Uint8Array, text: string, options?: SubsetOptions): Promise<Buffer>;
}
declare module "fontverter" {
  const fontverter: {
    convert(font: Uint8Array, to: "truetype" | "woff" | "woff2" | "sfnt"): Promise<Buffer>;
    detectFormat(font: Uint8Array): string;
  };
  export default fontverter;
}
