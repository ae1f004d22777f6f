/** The upstream provider's wire types and the client interface; docs/provider-api.md is the contract. */
import { m } from '~/paraglide/messages.js';
import type { AttachmentKind } from '~/shared/attachments';
import { formatSizeLimit } from '~/shared/format';

export interface ProviderCommodity {
  description: string;
  trackingNumber: string | null;
  pieces: number;
  totalWeightValue: number;
  totalVolumeValue: number;
}

export interface ProviderReceipt {
  id: number;
  number: string;
  receivedDate: string;
  shipperName: string;
  /** Null when the provider names no consignee (a Magaya receipt may have none). */
  consigneeId: number | null;
  consigneeName: string;
  pieces: number;
  totalWeightValue: number;
  totalVolumeValue: number;
  destination: string;
  status: string;
  modeOfTransportation: string;
  origin: { name: string };
  commodities: ProviderCommodity[];
  updatedAt: string;
}

export interface ProviderConsignee {
  id: number;
  name: string;
}

/** A warehouse arrival scan: a few known keys and whatever else the provider sends. */
export interface PackageScan {
  id: number | string;
  arrival_id: number | string | null;
  tracking_number: string;
  scanned_at: string;
  [field: string]: unknown;
}

export interface ReceiptChangesPage {
  receipts: ProviderReceipt[];
  nextCursor: string | null;
  hasMore: boolean;
  /**
   * Receipts the provider says are gone since the cursor, removed from the mirror at once. Only a
   * provider with a change log names them (Magaya's QueryLog); the contract's deletions are found by
   * the full pass.
   */
  deletedIds?: number[];
  /**
   * The pass holds every receipt the provider has, though it was asked for changes (Magaya reads
   * everything when the place it is given is not its own): what it did not hold is removed, as after a full pass.
   */
  complete?: boolean;
}

/** A file the provider keeps with a receipt: a package's photo, an invoice, a proof of delivery… */
export interface ProviderAttachment {
  /** The provider's id (a number is taken as its decimal text). */
  id: string;
  kind: AttachmentKind;
  fileName: string;
  contentType: string;
  size: number;
  /** ISO 8601; null when the provider sent none the portal can read. */
  createdAt: string | null;
}

/** An attachment's bytes as they arrive; reading on past the bound the download was asked with fails. */
export interface AttachmentDownload {
  /** The Content-Type the provider sent, if any: what the bytes claim, not what they are. */
  contentType: string | null;
  chunks: AsyncIterable<Uint8Array>;
}

/** OAuth2 token endpoint answer with the optional refresh-expiry extension. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Absolute expiry; null when the provider did not say. */
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
}

/** The optional parts of the contract a provider says it serves (`GET /v1/capabilities`). */
export interface ProviderCapabilities {
  prealerts: boolean;
}

/** A pre-alert as the portal tells the provider of it (`POST /v1/prealerts`); the id is the portal's. */
export interface ProviderPrealert {
  id: number;
  consigneeId: number;
  carrier: string;
  trackingNumber: string;
  shipper: string;
  description: string;
  declaredValue: { amount: string; currency: 'USD' };
  hasInvoice: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What the portal asks of the provider; the HTTP client implements it for every mode. */
export interface ProviderClient {
  /** One page of receipts changed after `since` (null: the first page of a full pass). */
  listReceiptChanges(since: string | null, limit?: number): Promise<ReceiptChangesPage>;
  getReceipt(id: number): Promise<ProviderReceipt | null>;
  listConsignees(): Promise<ProviderConsignee[]>;
  searchPackageScans(trackingNumber: string): Promise<PackageScan[]>;
  /**
   * A receipt's attachments; null when the provider has none to list for it (a 404: it serves no
   * attachments, or knows no such receipt).
   */
  listAttachments(receiptId: number): Promise<ProviderAttachment[] | null>;
  /**
   * One attachment's bytes, at most `maxBytes` of them (else an AttachmentTooLargeError); null when
   * the provider no longer has it.
   */
  downloadAttachment(id: string, maxBytes: number): Promise<AttachmentDownload | null>;
  /** The optional parts the provider serves; none when it has no capabilities document. */
  readCapabilities(): Promise<ProviderCapabilities>;
  /** Tells the provider of a new or changed pre-alert: an upsert by the portal's id. */
  savePrealert(prealert: ProviderPrealert): Promise<void>;
  /** Tells the provider a pre-alert was withdrawn; one it never knew is no failure. */
  withdrawPrealert(id: number): Promise<void>;
}

/** The provider could not be reached or answered with a failure: the portal's EXTERNAL_API_ERROR. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'unauthorized' | 'not-connected' | 'bad-response',
    /** The OAuth2 error code of a refusal (invalid_grant, invalid_client, …). */
    readonly oauthError: string | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** An attachment larger than the portal takes (`maxBytes`): refused before or while it arrives, never stored. */
export class AttachmentTooLargeError extends ProviderError {
  constructor(maxBytes: number) {
    super(m.attachment_too_large({ max: formatSizeLimit(maxBytes) }), 'bad-response');
    this.name = 'AttachmentTooLargeError';
  }
}

/** The provider declined a write as it was sent (a 4xx answer): sending it again will not help. */
export class ProviderRefusal extends ProviderError {
  constructor(message: string) {
    super(message, 'bad-response');
    this.name = 'ProviderRefusal';
  }
}
