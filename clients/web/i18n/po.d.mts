export declare const LOCALES: string[];
export declare const WEB_PREFIX: string;
export interface PoEntry {
  context: string;
  id: string;
  plural?: string;
  strings: string[];
}
export declare function parsePo(text: string): PoEntry[];
export declare function poPath(localeDir: string, locale: string): string;
export declare function readCatalogue(localeDir: string, locale: string): PoEntry[];
export declare function webCatalogues(localeDir: string): Record<string, Record<string, string>>;
