/**
 * The built-in completion-ratio rules (docs/billing.md#completion-ratio): how much more a completion
 * token costs than a prompt token for well-known model families. A *fixed* rule wins over
 * the CompletionRatio option (the provider's published price); a non-fixed one is only the
 * family default, which the option may override.
 */

export interface CompletionRule {
  /** What the rule covers, for reading the table. */
  pattern: string;
  matches(model: string): boolean;
  ratio: number;
  fixed: boolean;
}

/** `gpt-4*` models other than the `-all` and gizmo wildcards, which the option prices. */
function isGpt4Family(model: string): boolean {
  return model.startsWith('gpt-4') && !model.endsWith('-all') && !model.endsWith('-gizmo-*');
}

const exact =
  (...names: string[]) =>
  (model: string) =>
    names.includes(model);

/** Ordered: the first matching rule applies. */
export const COMPLETION_RULES: readonly CompletionRule[] = [
  { pattern: 'gpt-4o-2024-05-13', matches: (m) => isGpt4Family(m) && m === 'gpt-4o-2024-05-13', ratio: 3, fixed: true },
  { pattern: 'gpt-4o*', matches: (m) => isGpt4Family(m) && m.startsWith('gpt-4o'), ratio: 4, fixed: true },
  { pattern: 'gpt-4.5-preview*', matches: (m) => isGpt4Family(m) && m.startsWith('gpt-4.5-preview'), ratio: 2, fixed: true },
  {
    pattern: 'gpt-4-turbo*, *gpt-4-1106, *gpt-4-1105',
    matches: (m) => isGpt4Family(m) && (m.startsWith('gpt-4-turbo') || m.endsWith('gpt-4-1106') || m.endsWith('gpt-4-1105')),
    ratio: 3,
    fixed: true,
  },
  { pattern: 'gpt-4.1*', matches: (m) => isGpt4Family(m) && m.startsWith('gpt-4.1'), ratio: 4, fixed: true },
  { pattern: 'other gpt-4*', matches: isGpt4Family, ratio: 2, fixed: false },
  { pattern: 'o1*, o3*, o4*', matches: (m) => m.startsWith('o1') || m.startsWith('o3') || m.startsWith('o4'), ratio: 4, fixed: true },
  { pattern: 'gpt-5*', matches: (m) => m.startsWith('gpt-5'), ratio: 8, fixed: true },
  { pattern: 'gpt-image-1*', matches: (m) => m.startsWith('gpt-image-1'), ratio: 8, fixed: true },
  { pattern: 'chatgpt-4o-latest', matches: exact('chatgpt-4o-latest'), ratio: 3, fixed: true },
  { pattern: '*claude-instant-1*, *claude-2*', matches: (m) => m.includes('claude-instant-1') || m.includes('claude-2'), ratio: 3, fixed: true },
  { pattern: '*claude-3*', matches: (m) => m.includes('claude-3'), ratio: 5, fixed: true },
  { pattern: '*claude-sonnet-4*, *claude-opus-4*', matches: (m) => m.includes('claude-sonnet-4') || m.includes('claude-opus-4'), ratio: 5, fixed: true },
  {
    pattern: 'gpt-3.5-turbo, gpt-3.5*0125',
    matches: (m) => m === 'gpt-3.5-turbo' || (m.startsWith('gpt-3.5') && m.endsWith('0125')),
    ratio: 3,
    fixed: true,
  },
  { pattern: 'gpt-3.5*1106', matches: (m) => m.startsWith('gpt-3.5') && m.endsWith('1106'), ratio: 2, fixed: true },
  { pattern: 'other gpt-3.5*', matches: (m) => m.startsWith('gpt-3.5'), ratio: 4 / 3, fixed: true },
  { pattern: 'mistral-*', matches: (m) => m.startsWith('mistral-'), ratio: 3, fixed: true },
  { pattern: 'gemini-1.5*, gemini-2.0*', matches: (m) => m.startsWith('gemini-1.5') || m.startsWith('gemini-2.0'), ratio: 4, fixed: true },
  { pattern: 'gemini-2.5-pro*', matches: (m) => m.startsWith('gemini-2.5-pro'), ratio: 8, fixed: true },
  // $0.30 in, $2.50 out per 1M tokens.
  { pattern: 'gemini-2.5-flash', matches: exact('gemini-2.5-flash'), ratio: 2.5 / 0.3, fixed: true },
  { pattern: 'other gemini-*', matches: (m) => m.startsWith('gemini-'), ratio: 4, fixed: false },
  { pattern: 'command-r', matches: exact('command-r'), ratio: 3, fixed: true },
  { pattern: 'command-r-plus', matches: exact('command-r-plus'), ratio: 5, fixed: true },
  { pattern: 'command-r-08-2024, command-r-plus-08-2024', matches: exact('command-r-08-2024', 'command-r-plus-08-2024'), ratio: 4, fixed: true },
  { pattern: 'other command*', matches: (m) => m.startsWith('command'), ratio: 4, fixed: false },
  {
    pattern: 'deepseek-chat, deepseek-reasoner (any case)',
    matches: (m) => ['deepseek-chat', 'deepseek-reasoner'].includes(m.toLowerCase()),
    ratio: 4,
    fixed: true,
  },
  {
    pattern: 'ERNIE-Speed-*, ERNIE-Lite-*, ERNIE-Character*, ERNIE-Functions*',
    matches: (m) => ['ERNIE-Speed-', 'ERNIE-Lite-', 'ERNIE-Character', 'ERNIE-Functions'].some((p) => m.startsWith(p)),
    ratio: 2,
    fixed: true,
  },
  { pattern: 'llama2-70b-4096', matches: exact('llama2-70b-4096'), ratio: 0.8 / 0.64, fixed: true },
  { pattern: 'llama3-8b-8192', matches: exact('llama3-8b-8192'), ratio: 2, fixed: true },
  { pattern: 'llama3-70b-8192', matches: exact('llama3-70b-8192'), ratio: 0.79 / 0.59, fixed: true },
];

/** What applies to models no rule covers. */
export const DEFAULT_COMPLETION_RULE: CompletionRule = { pattern: 'anything else', matches: () => true, ratio: 1, fixed: false };

export function completionRuleFor(model: string): CompletionRule {
  return COMPLETION_RULES.find((rule) => rule.matches(model)) ?? DEFAULT_COMPLETION_RULE;
}
