/** pg's own conversion of a parameter to the text it sends (the package ships no types for it). */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null | undefined };
  export default utils;
}
