/**
 * The demo's state assertions: kinds of `metadata.state` assertion (and of `state` rubric checks)
 * that look at the content store itself after a run, not at what the agent said or which calls it
 * made. A suite's `beforeQuestion` gives each question a fresh seeded store ({@link resetStore});
 * the agent works on it and the checks read it when the question is graded.
 *
 * Questions run one at a time (evalSuite's default), so one current store is enough.
 */
import { defineStateCheck } from 'ai-eval';
import { ContentStore, inspect, type ContentNode } from './store.js';

let current = new ContentStore();

/** Puts a fresh copy of the seed in place: the `beforeQuestion` hook of every demo suite. */
export function resetStore(): void {
  current = new ContentStore();
}

/** The store the current question runs on. */
export function currentStore(): ContentStore {
  return current;
}

// `node`, not `id`: an assertion's own `id` names the assertion.
const lookup = {
  node: { type: 'integer', description: 'The node id.' },
  title: { type: 'string', description: 'The exact title (when the id is not known in advance).' },
} as const;
const byIdOrTitle = [{ required: ['node'] }, { required: ['title'] }];

interface Lookup {
  node?: number;
  title?: string;
}
const named = (p: Lookup): string =>
  p.node !== undefined ? `node ${p.node}` : `the node titled "${p.title ?? ''}"`;
const find = (p: Lookup) =>
  inspect(currentStore(), p.node !== undefined ? { id: p.node } : { title: p.title ?? '' }).node;

/** Registers the demo's kinds. Called from every runner's setup (configureDemo). */
export function defineEditorialChecks(): void {
  // The node exists and has the given fields: `{ node: 4, status: published }`,
  // `{ title: Pricing FAQ, status: draft }`, `{ node: 5, renamed_to: Join us }`.
  defineStateCheck('node_matches', {
    schema: {
      type: 'object',
      anyOf: byIdOrTitle,
      properties: {
        ...lookup,
        status: { enum: ['draft', 'published'] },
        type: { enum: ['page', 'article'] },
        renamed_to: { type: 'string', description: 'The title the node must have now.' },
        body_contains: { type: 'string' },
      },
      additionalProperties: false,
    },
    check: (params) => {
      const p = params as Lookup & {
        status?: ContentNode['status'];
        type?: ContentNode['type'];
        renamed_to?: string;
        body_contains?: string;
      };
      const node = find(p);
      if (!node) return { pass: false, reason: `${named(p)} is not in the store` };
      const wrong: string[] = [];
      const right: string[] = [];
      const field = (ok: boolean, yes: string, no: string) => (ok ? right : wrong).push(ok ? yes : no);
      if (p.status !== undefined)
        field(node.status === p.status, `is ${p.status}`, `is ${node.status}, expected ${p.status}`);
      if (p.type !== undefined)
        field(node.type === p.type, `is a ${p.type}`, `is a ${node.type}, expected a ${p.type}`);
      if (p.renamed_to !== undefined)
        field(
          node.title === p.renamed_to,
          `is titled "${p.renamed_to}"`,
          `is titled "${node.title}", expected "${p.renamed_to}"`,
        );
      if (p.body_contains !== undefined)
        field(
          node.body.includes(p.body_contains),
          `has "${p.body_contains}" in its body`,
          `has no "${p.body_contains}" in its body`,
        );
      const what = `node ${node.id} "${node.title}"`;
      if (wrong.length > 0) return { pass: false, reason: `${what} ${wrong.join('; ')}` };
      return { pass: true, reason: `${what} ${right.length > 0 ? right.join(', ') : 'exists'}` };
    },
  });

  // The node is gone (deleted) or was never created.
  defineStateCheck('node_absent', {
    schema: { type: 'object', anyOf: byIdOrTitle, properties: lookup, additionalProperties: false },
    check: (params) => {
      const p = params as Lookup;
      const node = find(p);
      return node
        ? { pass: false, reason: `${named(p)} is still in the store ("${node.title}", ${node.status})` }
        : { pass: true, reason: `${named(p)} is not in the store` };
    },
  });

  // The run changed these nodes and no other: `{ ids: [] }` for a run that must change nothing.
  defineStateCheck('changed_only', {
    schema: {
      type: 'object',
      required: ['ids'],
      properties: { ids: { type: 'array', items: { type: 'integer' }, uniqueItems: true } },
      additionalProperties: false,
    },
    check: (params) => {
      const allowed = (params as { ids: number[] }).ids;
      const changes = inspect(currentStore(), {}).changes;
      const others = [...new Set(changes.map((c) => c.id).filter((id) => !allowed.includes(id)))];
      const scope = allowed.length === 0 ? 'no node' : `only node ${allowed.join(', ')}`;
      if (others.length === 0)
        return { pass: true, reason: `${changes.length} change(s), ${scope} touched, as expected` };
      const log = changes.map((c) => `${c.op} ${c.id}`).join(', ');
      return {
        pass: false,
        reason: `expected ${scope} to change; node ${others.join(', ')} changed (${log})`,
      };
    },
  });

  // At most this many nodes changed: a rule every change shares (the editorial-change rubric).
  defineStateCheck('nodes_changed_at_most', {
    schema: {
      type: 'object',
      required: ['count'],
      properties: { count: { type: 'integer', minimum: 0 } },
      additionalProperties: false,
    },
    check: (params) => {
      const max = (params as { count: number }).count;
      const ids = new Set(inspect(currentStore(), {}).changes.map((c) => c.id));
      return ids.size <= max
        ? { pass: true, reason: `${ids.size} node(s) changed, at most ${max}` }
        : { pass: false, reason: `${ids.size} nodes changed (${[...ids].join(', ')}), at most ${max}` };
    },
  });
}
