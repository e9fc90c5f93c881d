// A light English stemmer for command search. Both the index and the query go through it, so it
// only has to map related forms to one key (create, creates, created, creating, creation -> creat),
// not produce real words. It is deliberately conservative: short words are left alone.

const irregular: ReadonlyMap<string, string> = new Map([
  ["vertices", "vertex"],
  ["indices", "index"],
  ["matrices", "matrix"],
  ["children", "child"],
  ["axes", "axis"],
  ["meshes", "mesh"],
  ["leaves", "leaf"],
  ["halves", "half"],
]);

const vowel = /[aeiouy]/;

/** The stem of a lower-case word: plural, -ing, -ed, -ion and a final -e removed. */
export function stem(word: string): string {
  if (word.length < 3) return word;
  const known = irregular.get(word);
  if (known !== undefined) return stem(known);
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(?:[sxz]|ch|sh)es$/.test(w) && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length < 4) return w;
  if (w.endsWith("ing") && hasStem(w, 3)) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && hasStem(w, 2)) w = undouble(w.slice(0, -2));
  else if (/[st]ion$/.test(w) && w.length - 3 >= 4) w = w.slice(0, -3);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}

function hasStem(word: string, suffix: number): boolean {
  const rest = word.slice(0, -suffix);
  return rest.length >= 3 && vowel.test(rest);
}

// setting -> sett -> set, dropped -> dropp -> drop; l, s and z stay doubled (roll, pass, buzz).
function undouble(word: string): string {
  const last = word[word.length - 1];
  if (
    word.length > 3 &&
    last === word[word.length - 2] &&
    last !== undefined &&
    !"aeioulsz".includes(last)
  ) {
    return word.slice(0, -1);
  }
  return word;
}
