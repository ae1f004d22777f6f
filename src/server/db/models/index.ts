/**
 * Sequelize models, defined once per database connection (a model class belongs to one Sequelize
 * instance), one file per service domain (docs/architecture.md, "Services"); `defineModels` puts them
 * together. Columns mirror the migrations in db/migrations; tests/in-process/database/migrations.test.ts
 * compares the two.
 */
import type { Sequelize } from 'sequelize';
import { defineAccountModels } from './accounts';
import { defineAttachmentModels } from './attachments';
import { defineAuditModels } from './audit';
import { defineBrandingModels } from './branding';
import { defineConsigneeModels } from './consignees';
import { defineImportModels } from './imports';
import { defineOutboxModels } from './outbox';
import { definePrealertModels } from './prealerts';
import { defineReceiptModels } from './receipts';
import { defineSyncModels } from './sync';
import { defineWebhookModels } from './webhooks';

export type { AccountTokenPurpose } from './accounts';
export type { BrandingImageKind } from './branding';
export type { PrealertMatchedBy } from './prealerts';

/** The models of one database connection. */
export function defineModels(sequelize: Sequelize) {
  const accounts = defineAccountModels(sequelize);
  return {
    ...accounts,
    ...defineConsigneeModels(sequelize, accounts),
    ...defineReceiptModels(sequelize),
    ...defineAttachmentModels(sequelize),
    ...defineOutboxModels(sequelize),
    ...defineAuditModels(sequelize),
    ...defineWebhookModels(sequelize),
    ...definePrealertModels(sequelize),
    ...defineSyncModels(sequelize),
    ...defineImportModels(sequelize),
    ...defineBrandingModels(sequelize),
  };
}

export type Models = ReturnType<typeof defineModels>;
export type User = InstanceType<Models['User']>;
export type Session = InstanceType<Models['Session']>;
export type Consignee = InstanceType<Models['Consignee']>;
export type ConsigneeAssignment = InstanceType<Models['ConsigneeAssignment']>;
export type ReceiptRecord = InstanceType<Models['ReceiptRecord']>;
export type PackageRecord = InstanceType<Models['PackageRecord']>;
export type ReceiptStatusChange = InstanceType<Models['ReceiptStatusChange']>;
export type OutboxMessage = InstanceType<Models['OutboxMessage']>;
export type ProviderTokenRecord = InstanceType<Models['ProviderTokenRecord']>;
export type OAuthAuthorization = InstanceType<Models['OAuthAuthorization']>;
export type SyncState = InstanceType<Models['SyncState']>;
export type BrandingImage = InstanceType<Models['BrandingImage']>;
export type BrandingSettings = InstanceType<Models['BrandingSettings']>;
export type AccountToken = InstanceType<Models['AccountToken']>;
export type RecoveryCode = InstanceType<Models['RecoveryCode']>;
export type PendingSignIn = InstanceType<Models['PendingSignIn']>;
export type Passkey = InstanceType<Models['Passkey']>;
export type PasskeyChallenge = InstanceType<Models['PasskeyChallenge']>;
export type AuditEntry = InstanceType<Models['AuditEntry']>;
export type ShareLink = InstanceType<Models['ShareLink']>;
export type OutboxJob = InstanceType<Models['OutboxJob']>;
export type ApiToken = InstanceType<Models['ApiToken']>;
export type ReceiptAttachmentList = InstanceType<Models['ReceiptAttachmentList']>;
export type ReceiptAttachment = InstanceType<Models['ReceiptAttachment']>;
export type WebhookEndpoint = InstanceType<Models['WebhookEndpoint']>;
export type WebhookDelivery = InstanceType<Models['WebhookDelivery']>;
export type Prealert = InstanceType<Models['Prealert']>;
