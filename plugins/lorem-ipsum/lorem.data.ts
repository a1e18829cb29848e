/** The classic opening, word by word; the comma belongs to "amet" as in the original. */
export const CLASSIC_WORDS: readonly string[] = ['Lorem', 'ipsum', 'dolor', 'sit', 'amet,', 'consectetur', 'adipiscing', 'elit'];

/**
 * The vocabulary of the generated text: the familiar lorem ipsum words, all lowercase, in
 * alphabetical order. Tests address words by index, so keep the order stable.
 */
export const WORDS: readonly string[] = [
  'ad', 'adipiscing', 'aliqua', 'aliquip', 'amet', 'anim', 'aute', 'cillum', 'commodo', 'consectetur',
  'consequat', 'culpa', 'cupidatat', 'deserunt', 'do', 'dolor', 'dolore', 'duis', 'ea', 'eiusmod',
  'elit', 'enim', 'esse', 'est', 'et', 'eu', 'ex', 'excepteur', 'exercitation', 'fugiat',
  'id', 'in', 'incididunt', 'ipsum', 'irure', 'labore', 'laboris', 'laborum', 'lorem', 'magna',
  'minim', 'mollit', 'nisi', 'non', 'nostrud', 'nulla', 'occaecat', 'officia', 'pariatur', 'proident',
  'qui', 'quis', 'reprehenderit', 'sed', 'sint', 'sit', 'sunt', 'tempor', 'ullamco', 'ut',
  'velit', 'veniam', 'voluptate',
];
