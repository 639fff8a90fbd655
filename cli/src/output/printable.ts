/**
 * Text from elsewhere (key labels, player and team names, server messages) as it may be printed
 * on a terminal: every character that could steer the terminal (escape sequences that retitle,
 * clear or colour it, NUL, carriage returns, C1 controls, bidirectional overrides) is shown as
 * its escape (`\x1b`, `\u202e`) instead of acting. What the CLI itself decorates with colour is
 * not passed through here.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it escapes
const STEERING = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it escapes
const STEERING_BUT_NEWLINE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function escapeOne(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of text (a table cell, a name in a sentence) with every control character escaped. */
export function printable(text: string): string {
  return text.replace(STEERING, escapeOne);
}

/** Lines of text (a message, a note): as `printable`, but newlines stay line breaks. */
export function printableLines(text: string): string {
  return text.replace(STEERING_BUT_NEWLINE, escapeOne);
}
