// The market services word their errors for the REST API ("GET /debt lists…", "i accepts…",
// "follow meta.next"); a model calling tools reads the same failure in tool words: the tool to
// call and the argument to set. One table, applied to every failure a tool or resource reports.

const REWRITES: readonly [RegExp, string][] = [
  // quotes.ts: a debt instrument asked for as an equity.
  [
    /its debt-market quote is at \/debt\/([^/\s]+)\/quote/g,
    'get_debt_quote with code=$1 gives its debt-market quote',
  ],
  // debt.ts
  [/\(GET \/debt lists its instruments\)/g, '(list_debt lists its instruments)'],
  // archive-answers.ts
  [/\(see GET \/archive\/status\)/g, '(see get_archive_status)'],
  // market-announcements.ts: the cursor the REST answer's meta.next carries is next_cursor here.
  [/follow meta\.next as given/g, 'pass next_cursor back as given'],
  // indicator-spec.ts: the REST parameter `i` is the tools' `indicators`.
  [/(^|[;:] )i (accepts|names|must)\b/g, '$1indicators $2'],
  [/; i accepts /g, '; indicators accepts '],
];

/** A service error's message with the REST API's words replaced by the tools'. */
export function toolWords(message: string): string {
  let out = message;
  for (const [pattern, replacement] of REWRITES) out = out.replace(pattern, replacement);
  return out;
}
