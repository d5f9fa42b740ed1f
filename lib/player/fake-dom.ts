/*
 * A document just large enough for the renderer's unit tests: Node has no DOM and the project installs no DOM
 * library. Elements keep their style and dataset as plain objects, children as a list, text as text nodes;
 * `querySelectorAll` knows tag names and `[data-name]` / `[data-name="value"]`; images decode only when the
 * document is given a `decode`. Test support only.
 */

class FakeNode {
  parentNode: FakeElement | null = null;

  get textContent(): string {
    return '';
  }

  remove(): void {
    const parent = this.parentNode;
    if (!parent) return;
    parent.childNodes.splice(parent.childNodes.indexOf(this), 1);
    this.parentNode = null;
  }
}

class FakeText extends FakeNode {
  constructor(readonly data: string) {
    super();
  }

  override get textContent(): string {
    return this.data;
  }
}

export class FakeElement extends FakeNode {
  readonly tagName: string;
  readonly style: Record<string, string> = {};
  readonly dataset: Record<string, string> = {};
  readonly childNodes: FakeNode[] = [];
  private readonly attributes = new Map<string, string>();
  src = '';
  alt = '';
  referrerPolicy = '';
  offsetWidth = 0;
  clientWidth = 0;
  /** An image's `decode()`, when the document was made with one. */
  decode?: () => Promise<void>;

  constructor(
    tag: string,
    readonly ownerDocument: FakeDocument,
  ) {
    super();
    this.tagName = tag.toUpperCase();
  }

  get children(): FakeElement[] {
    return this.childNodes.filter((n): n is FakeElement => n instanceof FakeElement);
  }

  override get textContent(): string {
    return this.childNodes.map((n) => n.textContent).join('');
  }

  set textContent(text: string) {
    this.replaceChildren(...(text ? [new FakeText(text)] : []));
  }

  appendChild<T extends FakeNode>(node: T): T {
    node.remove();
    node.parentNode = this;
    this.childNodes.push(node);

    return node;
  }

  append(...nodes: FakeNode[]): void {
    for (const node of nodes) this.appendChild(node);
  }

  replaceChildren(...nodes: FakeNode[]): void {
    for (const child of [...this.childNodes]) child.remove();
    this.append(...nodes);
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  addEventListener(): void {}

  querySelectorAll(selector: string): FakeElement[] {
    const data = /^\[data-([a-z-]+)(?:="([^"]*)")?\]$/.exec(selector);
    const matches = (e: FakeElement) => {
      if (!data) return e.tagName === selector.toUpperCase();
      const key = data[1]!.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

      return key in e.dataset && (data[2] === undefined || e.dataset[key] === data[2]);
    };
    const found: FakeElement[] = [];
    const walk = (e: FakeElement) => {
      for (const child of e.children) {
        if (matches(child)) found.push(child);
        walk(child);
      }
    };
    walk(this);

    return found;
  }

  querySelector(selector: string): FakeElement | null {
    return this.querySelectorAll(selector)[0] ?? null;
  }
}

class FakeDocument {
  constructor(private readonly decode?: () => Promise<void>) {}

  createElement(tag: string): FakeElement {
    const element = new FakeElement(tag, this);
    if (tag === 'img' && this.decode) element.decode = this.decode;

    return element;
  }

  createTextNode(text: string): FakeNode {
    return new FakeText(text);
  }
}

/**
 * A fake document typed as the real one, for code under test that takes a `Document`; the cast is the point of
 * the fake (it implements only what the renderer calls).
 */
export function fakeDocument(options: { decode?: () => Promise<void> } = {}): Document {
  return new FakeDocument(options.decode) as unknown as Document;
}

/** The fake element behind a real-typed one (what the renderer answered), to read its style and children. */
export function fake(node: Element | HTMLElement): FakeElement {
  if (!(node instanceof FakeElement)) throw new Error('not an element of the fake document');

  return node;
}
