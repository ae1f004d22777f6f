/**
 * Magaya's documents read as a stream with sax: only the elements asked for are built (one receipt at
 * a time), the rest passes through. Names are local names, whatever prefix the sender chose. A DOCTYPE
 * is refused outright, so no entity is ever defined, expanded or fetched; only XML's five predefined
 * entities and character references are read.
 */
import sax from 'sax';

/**
 * An element by local names: its attributes, its child elements and its text (the text of its own,
 * not its children's).
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** A document the portal will not read: malformed, or declaring a DOCTYPE. */
export class XmlRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlRefusedError';
  }
}

/**
 * A name without its prefix: the parser leaves namespaces alone (a third faster), as the portal
 * reads by local name.
 */
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The first child element with this local name. */
export const childOf = (element: XmlElement | undefined, name: string): XmlElement | undefined =>
  element?.children.find((child) => child.name === name);

/** Every child element with this local name. */
export const childrenOf = (element: XmlElement | undefined, name: string): XmlElement[] =>
  element?.children.filter((child) => child.name === name) ?? [];

/** A child's text, trimmed; '' when there is no such child. */
export const textOf = (element: XmlElement | undefined, name: string): string =>
  childOf(element, name)?.text.trim() ?? '';

/**
 * A push parser that hands over each element with a wanted local name once it is complete. Text
 * outside those elements is dropped as it comes; elements nested inside a wanted one are part of it.
 * `onText` sees every piece of text with the local names of the elements it is in, root first (how
 * the SOAP answer's out-parameters are read), whether or not they are wanted.
 */
export class XmlElementReader {
  // strictEntities: XML's five entities only, not HTML's (sax 1.6 has it; its types do not yet). Positions stay
  // tracked: sax hands over a long text in 64 KB pieces only when it counts them.
  private readonly parser = sax.parser(true, { strictEntities: true } as sax.SAXOptions);
  private readonly done: XmlElement[] = [];
  /** The wanted element being built and its open descendants, outermost first. */
  private readonly open: XmlElement[] = [];
  /** Local names of the elements from the document's root down to the current one. */
  private readonly path: string[] = [];
  private failure: Error | null = null;

  constructor(
    wanted: (name: string) => boolean,
    onText?: (path: readonly string[], text: string) => void,
  ) {
    const { parser } = this;
    parser.ondoctype = () => {
      this.failure ??= new XmlRefusedError(
        'The document declares a DOCTYPE, which the portal does not read',
      );
    };
    parser.onerror = (error) => {
      this.failure ??= new XmlRefusedError(
        `The document is not well-formed XML: ${error.message.split('\n')[0]}`,
      );
    };
    parser.onopentag = (tag) => {
      const local = localName(tag.name);
      this.path.push(local);
      if (this.open.length === 0 && !wanted(local)) return;
      const attributes: Record<string, string> = {};
      for (const [name, value] of Object.entries(tag.attributes as Record<string, string>)) {
        if (name !== 'xmlns' && !name.startsWith('xmlns:')) attributes[localName(name)] = value;
      }
      const element: XmlElement = { name: local, attributes, children: [], text: '' };
      this.open.at(-1)?.children.push(element);
      this.open.push(element);
    };
    parser.onclosetag = () => {
      this.path.pop();
      const element = this.open.pop();
      if (element && this.open.length === 0) this.done.push(element);
    };
    const text = (value: string) => {
      const current = this.open.at(-1);
      if (current) current.text += value;
      onText?.(this.path, value);
    };
    parser.ontext = text;
    parser.oncdata = text;
  }

  /** Reads more of the document; throws an XmlRefusedError at the first fault. */
  write(text: string): void {
    this.check();
    try {
      this.parser.write(text);
    } catch (error) {
      this.failure ??= new XmlRefusedError(
        `The document is not well-formed XML: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    this.check();
  }

  /** The document is complete: a document cut short is refused. */
  close(): void {
    this.check();
    try {
      this.parser.close();
    } catch (error) {
      this.failure ??= new XmlRefusedError(
        `The document is not well-formed XML: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    this.check();
  }

  /** The wanted elements completed since the last call. */
  take(): XmlElement[] {
    return this.done.splice(0);
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }
}

/** Each element with this local name, as the bytes arrive; the document is read to its end. */
export async function* readElements(
  chunks: AsyncIterable<Uint8Array | string>,
  name: string,
): AsyncGenerator<XmlElement> {
  const reader = new XmlElementReader((local) => local === name);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of chunks) {
    reader.write(typeof chunk === 'string' ? chunk : decodeChunk(decoder, chunk, true));
    yield* reader.take();
  }
  reader.write(decodeChunk(decoder, new Uint8Array(0), false));
  reader.close();
  yield* reader.take();
}

function decodeChunk(decoder: TextDecoder, chunk: Uint8Array, stream: boolean): string {
  try {
    return decoder.decode(chunk, { stream });
  } catch {
    throw new XmlRefusedError('The document is not UTF-8');
  }
}

/** A whole (small) document's root element. */
export function parseXml(text: string): XmlElement {
  // Every element outside a wanted one is wanted: that is the root, and there is no other.
  const reader = new XmlElementReader(() => true);
  reader.write(text);
  reader.close();
  const [root] = reader.take();
  if (!root) throw new XmlRefusedError('The document has no root element');
  return root;
}
