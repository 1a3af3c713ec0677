/**
 * A regex source written as a trie of literal alternatives ({@link literalTrie}): the cheap test
 * for any of many words in a text (the secret key words of secret-keys.ts).
 */

/**
 * A regex source that matches any of `alternatives` (plain text, a space standing for
 * `separator`), written as a trie: alternatives that start alike share their first letters in it
 * (`p(?:ass(?:word|wd)|rivate…)`), which the regex engine reads once at each position of a text
 * rather than once per alternative. This is a test for any of them in a text, so an alternative
 * that starts with a shorter one (`credentials`, after `credential`) is left out.
 */
export function literalTrie(alternatives: Iterable<string>, separator: string): string {
  type TrieNode = Map<string, TrieNode>;
  const END = '';
  const root: TrieNode = new Map();
  for (const alternative of alternatives) {
    let node = root;
    for (const char of alternative) {
      if (node.has(END)) break; // a shorter alternative ends here: it matches wherever this one does
      let next = node.get(char);
      if (next === undefined) {
        next = new Map();
        node.set(char, next);
      }
      node = next;
    }
    node.clear();
    node.set(END, new Map());
  }
  const source = (node: TrieNode): string => {
    if (node.has(END)) return '';
    const branches = [...node].map(
      ([char, next]) =>
        (char === ' ' ? separator : char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')) + source(next),
    );
    return branches.length === 1 ? (branches[0] ?? '') : `(?:${branches.join('|')})`;
  };
  return source(root);
}
