/**
 * Stage 1 and the trigger pre-filter of the sanitizer (docs/sdk-contract.md,
 * section 2): the compiled rules, the character classes of step 1, and one
 * automaton over the rules' trigger literals, each built on first use.
 *
 * Most text is clean ASCII. One pass of the automaton (built once,
 * case-insensitive) tells whether a text may need step 1, and which rules'
 * triggers it contains; only those rules run. The contract allows exactly
 * this ("an SDK may skip a rule for text whose lower-cased form contains
 * none of its triggers"), and the result is the same as running every rule.
 * Why TypeScript builds this automaton from the generated trigger lists
 * while Python gets a generated test is decided, with its measurements, in
 * codegen/README.md ("The trigger pre-filter").
 *
 * @module
 */

import {
  INJECTION_RULES,
  INJECTION_TRIGGERS,
  REMOVE_CLASS,
  SECRET_RULES,
  SECRET_TRIGGERS,
  TO_SPACE_CLASS,
} from "./generated/sanitizer-rules.js";
import type { Triggers } from "./types.js";
import type { CompiledRule } from "./covers.js";

/** What the scanner says of a text (or a bit mask of rules whose triggers it holds, ≥ 0). */
export const NEEDS_STEP_1 = -1;
export const NOT_ASCII = -2;

/** The transition table: a row of 128 entries per state, each the next state's row offset. */
type Table = Uint16Array | Int32Array;

/** The compiled rules and the classes of step 1: all that sanitizing needs, without the automaton. */
export interface Compiled {
  /** Injection rules first, then secret rules; rule i is bit i of a mask. */
  readonly rules: readonly CompiledRule[];
  readonly remove: RegExp;
  readonly toSpace: RegExp;
}

/** The compiled rules and the trigger automaton. */
export interface Engine extends Compiled {
  /**
   * Rules that run on any ASCII text: those with a non-ASCII trigger or none.
   * Rules past the 31st (more than a mask holds) always run too.
   */
  readonly always: number;
  /**
   * Automaton transitions, indexed by a state's row offset (state * 128)
   * plus a character code (A-Z read as a-z); each entry is a row offset too,
   * so the scan loop adds and loads, nothing else.
   */
  readonly next: Table;
  /** The rules whose trigger ends in each state (indexed by state, not row offset). */
  readonly found: Int32Array;
  /** The row offset of the start state. */
  readonly start: number;
  /** Row offsets from this one on complete a trigger (or are `dead`). */
  readonly accepting: number;
  /** The row offset of the state a character that step 1 changes leads to; it leads nowhere else. */
  readonly dead: number;
  /** The ASCII characters step 1 removes or replaces. */
  readonly step1: Uint8Array;
}

let rulesBuilt: Compiled | undefined;

/**
 * The rules and classes, compiled on first use. A constructor's path
 * (which runs every rule) reaches only this, so a bundle of classes holds
 * no automaton; the engine shares the same objects.
 */
export function compiledRules(): Compiled {
  return (rulesBuilt ??= {
    // Injection markers first, then secrets (contract section 2, stage 3).
    rules: [...INJECTION_RULES, ...SECRET_RULES].map(
      (r, i): CompiledRule => ({
        prefix: r.prefix === "" ? undefined : new RegExp(r.prefix, "gu"),
        pattern: new RegExp(r.pattern, r.prefix === "" ? "gu" : "uy"),
        secret: i >= INJECTION_RULES.length,
      }),
    ),
    remove: new RegExp(REMOVE_CLASS, "gu"),
    toSpace: new RegExp(TO_SPACE_CLASS, "gu"),
  });
}

let built: Engine | undefined;

/** The engine, built on first use. */
export function engine(): Engine {
  return (built ??= build());
}

function build(): Engine {
  const { rules, remove, toSpace } = compiledRules();
  const step1 = step1Table(remove, toSpace);
  const trie = buildTrie([...INJECTION_TRIGGERS, ...SECRET_TRIGGERS]);
  const { full, found } = resolveFailures(trie.children, trie.ends);
  return { rules, always: trie.always, step1, remove, toSpace, ...renumber(full, found, step1) };
}

/** The ASCII characters that step 1 changes (1) or keeps (0). */
function step1Table(remove: RegExp, toSpace: RegExp): Uint8Array {
  const step1 = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    remove.lastIndex = toSpace.lastIndex = 0;
    step1[c] = remove.test(ch) || toSpace.test(ch) ? 1 : 0;
  }
  remove.lastIndex = toSpace.lastIndex = 0;
  return step1;
}

interface Trie {
  readonly children: Map<number, number>[];
  /** The rules whose trigger ends in each node. */
  readonly ends: number[];
  readonly always: number;
}

/** The trie of every (lower-cased, printable ASCII) trigger; `triggers` are each rule's, in the order of the rules. */
function buildTrie(triggers: readonly Triggers[]): Trie {
  const children: Map<number, number>[] = [new Map()];
  const ends: number[] = [0];
  let always = 0;
  triggers.forEach((ofRule, i) => {
    const bit = i < 31 ? 1 << i : 0;
    if (bit === 0 || ofRule.length === 0 || ofRule.some((t) => /[^\x20-\x7e]/.test(t))) {
      always |= bit;
      return;
    }
    for (const trigger of ofRule) {
      let state = 0;
      for (const ch of trigger.toLowerCase()) {
        const c = ch.charCodeAt(0);
        let to = children[state]!.get(c);
        if (to === undefined) {
          to = children.length;
          children.push(new Map());
          ends.push(0);
          children[state]!.set(c, to);
        }
        state = to;
      }
      ends[state]! |= bit;
    }
  });
  return { children, ends, always };
}

/** The trie's failure links (Aho-Corasick) resolved into a full transition table. */
function resolveFailures(children: readonly Map<number, number>[], ends: readonly number[]): { full: Int32Array; found: Int32Array } {
  const states = children.length;
  const full = new Int32Array(states * 128);
  const found = new Int32Array(states);
  const fail = new Int32Array(states);
  const queue: number[] = [];
  for (let c = 0; c < 128; c++) {
    const to = children[0]!.get(c);
    if (to !== undefined) {
      full[c] = to;
      queue.push(to);
    }
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    found[s] = ends[s]! | found[fail[s]!]!;
    for (let c = 0; c < 128; c++) {
      const to = children[s]!.get(c);
      if (to === undefined) {
        full[s * 128 + c] = full[fail[s]! * 128 + c]!;
      } else {
        fail[to] = full[fail[s]! * 128 + c]!;
        full[s * 128 + c] = to;
        queue.push(to);
      }
    }
  }
  return { full, found };
}

/**
 * Renumber the states: those that complete a trigger last (from `accepting`
 * on), then one dead state for the characters step 1 changes, so the scan
 * loop tests one number per character instead of loading two tables.
 */
function renumber(
  full: Int32Array,
  found: Int32Array,
  step1: Uint8Array,
): Pick<Engine, "next" | "found" | "start" | "accepting" | "dead"> {
  const states = found.length;
  const order = [...Array(states).keys()].sort((a, b) => Number(found[a] !== 0) - Number(found[b] !== 0) || a - b);
  const rank = new Int32Array(states);
  order.forEach((old, i) => (rank[old] = i));
  const accepting = order.findIndex((old) => found[old] !== 0);
  const dead = states;
  const next: Table = (dead + 1) * 128 <= 0x10000 ? new Uint16Array((states + 1) * 128) : new Int32Array((states + 1) * 128);
  const foundBy = new Int32Array(states + 1);
  for (let old = 0; old < states; old++) {
    const r = rank[old]!;
    foundBy[r] = found[old]!;
    for (let c = 0; c < 128; c++) {
      const lower = c >= 0x41 && c <= 0x5a ? c + 32 : c;
      next[r * 128 + c] = (step1[c] !== 0 ? dead : rank[full[old * 128 + lower]!]!) * 128;
    }
  }
  next.fill(dead * 128, dead * 128);
  return {
    next,
    found: foundBy,
    start: rank[0]! * 128,
    accepting: (accepting === -1 ? dead : accepting) * 128,
    dead: dead * 128,
  };
}

/**
 * One pass over `text`, stopped at the first character that needs the full
 * steps: NEEDS_STEP_1 at an ASCII character that step 1 changes, NOT_ASCII
 * at any character above U+007F (either way every step runs, so which one
 * comes first does not matter); else the mask of rules whose triggers occur
 * (case-insensitively).
 */
export function scan(e: Engine, text: string): number {
  const { next, found, accepting, dead } = e;
  let state = e.start;
  let mask = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return NOT_ASCII;
    state = next[state + c]!;
    if (state >= accepting) {
      if (state === dead) return NEEDS_STEP_1;
      mask |= found[state >> 7]!;
    }
  }
  return mask | e.always;
}

const LOWER_K = 0x6b;
const LOWER_I = 0x69;

/**
 * The mask of rules whose triggers occur in the lower-cased form of `text`,
 * which step 1 has cleaned (it holds no character step 1 changes). A
 * non-ASCII character is in no trigger and breaks any partial match, except
 * the two whose lower case holds an ASCII letter: U+212A (KELVIN SIGN, "k")
 * and U+0130 ("i" and a combining dot).
 */
export function triggersOf(e: Engine, text: string): number {
  const { next, found, accepting, dead, start } = e;
  let state = start;
  let mask = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c > 0x7f) {
      if (c === 0x212a) c = LOWER_K;
      else if (c === 0x130) {
        state = next[state + LOWER_I]!;
        if (state >= accepting && state !== dead) mask |= found[state >> 7]!;
        state = start;
        continue;
      } else {
        state = start;
        continue;
      }
    }
    state = next[state + c]!;
    if (state >= accepting) {
      if (state === dead) state = start;
      else mask |= found[state >> 7]!;
    }
  }
  return mask | e.always;
}

/** Step 1: delete the `remove` characters, turn the `to_space` characters into spaces. */
export function cleanCharacters(e: Compiled, text: string): string {
  return text.replace(e.remove, "").replace(e.toSpace, " ");
}
