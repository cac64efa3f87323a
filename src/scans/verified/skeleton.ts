/**
 * The normalised forms two token names are compared by: a copy is told apart from its original
 * only by what a reader cannot see. NFKC (fullwidth and styled letters), decorations, spaces,
 * dots and invisible characters removed, accents dropped, case folded, and confusable letters
 * mapped to one skeleton with Unicode's confusables data (UTS #39 confusables.txt, through
 * `unhomoglyph`). Both case folds are kept: "I" is confusable with "l", its lower case "i" is not.
 */
import unhomoglyph from 'unhomoglyph';

/** Code units of a name or symbol read at most: metadata can hold megabytes of text. */
export const MAX_COMPARED = 200;
/** A form shorter than this (one letter) names nothing in particular and is never compared. */
export const MIN_FORM_LENGTH = 2;

/** Spacing, invisible and control characters, punctuation and currency or modifier signs. */
const DECORATION = /[\p{Z}\p{C}\p{P}\p{Sc}\p{Sk}]/gu;
const MARK = /\p{M}/gu;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/gu;

const withoutMarks = (text: string) => text.normalize('NFD').replace(MARK, '');

function skeletonOf(text: string): string {
  const plain = withoutMarks(text.normalize('NFKC').replace(DECORATION, ''));
  // Mapped, folded, and mapped again: folding can turn one confusable into another.
  const mapped = unhomoglyph(unhomoglyph(plain).toLowerCase());
  return withoutMarks(mapped).toLowerCase().replace(NOT_LETTER_OR_DIGIT, '');
}

/** The forms `text` is compared by (one or two: lower case first), short ones left out. */
export function formsOf(text: string): string[] {
  const bounded = text.slice(0, MAX_COMPARED);
  const forms = new Set([skeletonOf(bounded.toLowerCase()), skeletonOf(bounded.toUpperCase())]);
  return [...forms].filter((form) => [...form].length >= MIN_FORM_LENGTH);
}
