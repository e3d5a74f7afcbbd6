/** Current Unix time in whole seconds: the unit of every `*_time`/`created_at` column and of the API's timestamps. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
