/**
 * Maximum bipartite matching by augmenting paths (Kuhn's algorithm), the assignment behind
 * `tool_usage_grader`: every left vertex (an expectation) may take at most one right vertex (a
 * recorded call) it has an edge to, every right vertex serves at most one left vertex, and the number
 * of matched pairs is as large as possible. A greedy pairing can strand an expectation whose only
 * candidate was taken by one that had others; an augmenting path moves that one along instead.
 *
 * `candidates[i]` lists the right vertices left vertex `i` may take, in preference order (for
 * `tool_usage_grader`, call order, so the earliest usable call is reported). The result holds, for
 * each left vertex, the right vertex it got, or -1. Runs in O(V * E).
 *
 * @example
 * ```ts
 * // Left 0 could take 0 or 1; left 1 only 0. Greedy gives left 0 call 0 and strands left 1.
 * maximumMatching([[0, 1], [0]], 2); // [1, 0]
 * ```
 */
export function maximumMatching(candidates: ReadonlyArray<readonly number[]>, rightCount: number): number[] {
  const rightOwner = new Array<number>(rightCount).fill(-1);
  const leftMatch = new Array<number>(candidates.length).fill(-1);
  // visited[right] === round marks a right vertex seen in this round; one array serves every round.
  // Made only when a round has to search: most rounds take their first candidate, which is free.
  let visited: Uint32Array | undefined;
  for (let left = 0; left < candidates.length; left++) {
    const options = candidates[left];
    if (options === undefined || options.length === 0) continue;
    // What augment does first: a free first candidate is taken, with no search.
    const first = options[0]!;
    if (rightOwner[first] === -1) {
      rightOwner[first] = left;
      leftMatch[left] = first;
      continue;
    }
    visited ??= new Uint32Array(rightCount);
    augment(left, candidates, rightOwner, leftMatch, visited, left + 1);
  }
  return leftMatch;
}

/**
 * Tries to give `start` a right vertex, re-seating earlier owners along an alternating path.
 * Iterative (an explicit stack), so a long chain of re-seats cannot overflow the call stack.
 */
function augment(
  start: number,
  candidates: ReadonlyArray<readonly number[]>,
  rightOwner: number[],
  leftMatch: number[],
  visited: Uint32Array,
  round: number,
): boolean {
  // Each frame: the left vertex being seated, the next candidate index to try, and the right vertex
  // it is trying (whose owner is being re-seated one frame up).
  const stack: { left: number; next: number; trying: number }[] = [{ left: start, next: 0, trying: -1 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const options = candidates[frame.left] ?? [];
    let pushed = false;
    while (frame.next < options.length) {
      const right = options[frame.next++]!;
      if (visited[right] === round) continue;
      visited[right] = round;
      const owner = rightOwner[right]!;
      if (owner === -1) {
        // A free right vertex: flip the whole path, from this frame down to the start.
        let seat = right;
        for (let i = stack.length - 1; i >= 0; i--) {
          const f = stack[i]!;
          leftMatch[f.left] = seat;
          rightOwner[seat] = f.left;
          seat = i > 0 ? stack[i - 1]!.trying : -1;
        }
        return true;
      }
      frame.trying = right;
      stack.push({ left: owner, next: 0, trying: -1 });
      pushed = true;
      break;
    }
    if (!pushed) stack.pop();
  }
  return false;
}

/**
 * The greedy pairing `tool_usage_grader` does NOT use: each left vertex in turn takes its first
 * free candidate. Kept for the benchmark and the tests that show where it loses to
 * {@link maximumMatching}.
 *
 * @example
 * ```ts
 * greedyMatching([[0, 1], [0]], 2); // [0, -1]: left 1 is stranded
 * ```
 */
export function greedyMatching(candidates: ReadonlyArray<readonly number[]>, rightCount: number): number[] {
  const taken = new Uint8Array(rightCount);
  return candidates.map((options) => {
    const free = options.find((right) => !taken[right]);
    if (free === undefined) return -1;
    taken[free] = 1;
    return free;
  });
}
