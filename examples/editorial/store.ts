/**
 * The editorial assistant's content store: a few pages and articles in memory. Every run starts
 * from a fresh copy of the same seed, so a run's changes are its own and can be inspected after it.
 */

/** One page or article. */
export interface ContentNode {
  id: number;
  type: 'page' | 'article';
  title: string;
  body: string;
  status: 'draft' | 'published';
  author: string;
  tags: string[];
  /** Someone is editing the node: updates and deletes fail until they are done. */
  lockedBy?: string;
}

/** One change a tool made to the store, in order. */
export interface StoreChange {
  op: 'create' | 'update' | 'delete';
  id: number;
  /** The fields written (create and update). */
  fields?: Partial<ContentNode>;
}

/** The fields `search` filters on; every given one must match. */
export interface SearchFilter {
  query?: string;
  status?: ContentNode['status'];
  type?: ContentNode['type'];
  tag?: string;
}

/** A failed store operation: the tool returns it to the model as an error result. */
export class StoreError extends Error {}

const SEED: readonly ContentNode[] = [
  {
    id: 1,
    type: 'page',
    title: 'Home',
    body: 'Welcome to Northwind Outdoor.',
    status: 'published',
    author: 'Ana Silva',
    tags: [],
  },
  {
    id: 2,
    type: 'page',
    title: 'Pricing',
    body: 'Starter is $9 a month and Team is $29 a month. Refunds are available within 30 days of purchase.',
    status: 'published',
    author: 'Ana Silva',
    tags: ['pricing'],
  },
  {
    id: 3,
    type: 'article',
    title: 'Pricing changes for 2027',
    body: 'From January 2027 the Team plan moves to $32 a month.',
    status: 'draft',
    author: 'Sam Okafor',
    tags: ['pricing'],
  },
  {
    id: 4,
    type: 'article',
    title: 'Spring launch checklist',
    body: 'Photos, price list, press kit, newsletter.',
    status: 'draft',
    author: 'Dana Reyes',
    tags: ['launch'],
  },
  {
    id: 5,
    type: 'page',
    title: 'Careers',
    body: 'We are hiring guides and shop staff.',
    status: 'published',
    author: 'Ana Silva',
    tags: [],
    lockedBy: 'Sam Okafor',
  },
  {
    id: 6,
    type: 'article',
    title: 'Launch press release',
    body: 'Northwind Outdoor opens its second shop in Porto.',
    status: 'published',
    author: 'Dana Reyes',
    tags: ['launch'],
  },
  {
    id: 7,
    type: 'article',
    title: 'Winter promo',
    body: 'Twenty percent off all jackets until the end of February.',
    status: 'published',
    author: 'Sam Okafor',
    tags: ['promo'],
  },
  {
    id: 8,
    type: 'page',
    title: 'Pricing FAQ',
    body: 'Answers to common questions about plans and billing.',
    status: 'published',
    author: 'Ana Silva',
    tags: ['pricing'],
  },
];

const copy = (node: ContentNode): ContentNode => ({ ...node, tags: [...node.tags] });

/** An in-memory content store with a change log. */
export class ContentStore {
  private readonly nodes = new Map<number, ContentNode>();
  private nextId: number;
  /** Every change made through the store, in order. */
  readonly changes: StoreChange[] = [];

  constructor(seed: readonly ContentNode[] = SEED) {
    for (const node of seed) this.nodes.set(node.id, copy(node));
    this.nextId = Math.max(0, ...seed.map((n) => n.id)) + 1;
  }

  /** Every node matching the filter, by id. */
  search(filter: SearchFilter): ContentNode[] {
    const words = (filter.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    return [...this.nodes.values()].filter((node) => {
      const text = `${node.title} ${node.body} ${node.tags.join(' ')}`.toLowerCase();
      return (
        words.every((w) => text.includes(w)) &&
        (filter.status === undefined || node.status === filter.status) &&
        (filter.type === undefined || node.type === filter.type) &&
        (filter.tag === undefined || node.tags.includes(filter.tag))
      );
    });
  }

  /** The node, or undefined. */
  find(id: number): ContentNode | undefined {
    const node = this.nodes.get(id);
    return node && copy(node);
  }

  /** The node; a {@link StoreError} when there is none. */
  get(id: number): ContentNode {
    const node = this.find(id);
    if (!node) throw new StoreError(`node ${id} not found`);
    return node;
  }

  create(fields: Omit<ContentNode, 'id'>): ContentNode {
    const node: ContentNode = { ...fields, tags: [...fields.tags], id: this.nextId++ };
    this.nodes.set(node.id, node);
    this.changes.push({ op: 'create', id: node.id, fields: copy(node) });
    return copy(node);
  }

  update(id: number, fields: Partial<Omit<ContentNode, 'id'>>): ContentNode {
    const node = this.writable(id);
    Object.assign(node, fields);
    this.changes.push({ op: 'update', id, fields: { ...fields } });
    return copy(node);
  }

  delete(id: number): void {
    this.writable(id);
    this.nodes.delete(id);
    this.changes.push({ op: 'delete', id });
  }

  private writable(id: number): ContentNode {
    const node = this.nodes.get(id);
    if (!node) throw new StoreError(`node ${id} not found`);
    if (node.lockedBy) throw new StoreError(`node ${id} is locked: ${node.lockedBy} is editing it`);
    return node;
  }
}

/** What {@link inspect} looks up: a node by id, or by exact title. */
export interface InspectParams {
  id?: number;
  title?: string;
}

/** What the store holds for an {@link InspectParams} lookup, and what the run changed. */
export interface Inspection {
  /** The node found, or null when there is none (never created, or deleted). */
  node: ContentNode | null;
  /** The changes the run made to that node (all changes when no node was named). */
  changes: StoreChange[];
}

/**
 * Looks at the store after a run: a state assertion is a comparison of this with what the question
 * expects, e.g. `inspect(run.store, { id: 4 }).node?.status === 'published'`, or no change at all
 * for a lookup: `inspect(run.store, {}).changes.length === 0`.
 */
export function inspect(store: ContentStore, params: InspectParams): Inspection {
  const byTitle =
    params.title === undefined ? undefined : store.search({}).find((n) => n.title === params.title);
  const node = params.id !== undefined ? (store.find(params.id) ?? null) : (byTitle ?? null);
  const id = params.id ?? byTitle?.id;
  const named = params.id !== undefined || params.title !== undefined;
  return { node, changes: store.changes.filter((c) => !named || c.id === id) };
}
