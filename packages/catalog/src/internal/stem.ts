// A light English stemmer for command search. Both the index and the query go through it, so it
// only has to map related forms to one key (create, creates, created, creating, creation -> creat),
// not produce real words. It is deliberately conservative: short words are left alone. Written
// with endsWith and character tests rather than regexes: it runs for every distinct word indexed.

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

/** The stem of a lower-case word: plural, -ing, -ed, -ion and a final -e removed. */
export function stem(word: string): string {
  if (word.length < 3) return word;
  const known = irregular.get(word);
  if (known !== undefined) return stem(known);
  let w = word;
  if (w.endsWith("s")) {
    if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
    else if (w.endsWith("sses")) w = w.slice(0, -2);
    else if (w.endsWith("es") && w.length > 4 && sibilantBefore(w, w.length - 2)) {
      w = w.slice(0, -2);
    } else if (!w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  }
  if (w.length < 4) return w;
  if (w.endsWith("ing") && hasStem(w, 3)) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && hasStem(w, 2)) w = undouble(w.slice(0, -2));
  else if ((w.endsWith("tion") || w.endsWith("sion")) && w.length >= 7) w = w.slice(0, -3);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

// boxes, buzzes, passes, matches, meshes: the "es" is a plural ending.
function sibilantBefore(word: string, end: number): boolean {
  const last = word[end - 1];
  if (last === "s" || last === "x" || last === "z") return true;
  return last === "h" && (word[end - 2] === "c" || word[end - 2] === "s");
}

function hasStem(word: string, suffix: number): boolean {
  const length = word.length - suffix;
  if (length < 3) return false;
  for (let index = 0; index < length; index++) {
    if ("aeiouy".includes(word[index] as string)) return true;
  }
  return false;
}

// setting -> sett -> set, dropped -> dropp -> drop; l, s and z stay doubled (roll, pass, buzz).
function undouble(word: string): string {
  const last = word[word.length - 1];
  if (
    word.length > 3 &&
    last !== undefined &&
    last === word[word.length - 2] &&
    !"aeioulsz".includes(last)
  ) {
    return word.slice(0, -1);
  }
  return word;
}
