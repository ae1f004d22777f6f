/** The tables of the branding: logo and background files, the settings. */
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { CARD_OPACITY_DEFAULT } from '~/shared/constants';

export type BrandingImageKind = 'logo' | 'background';

export function defineBrandingModels(sequelize: Sequelize) {
  /** The uploaded logo or background: what the file is; its bytes are in UPLOADS_DIR under fileName. */
  class BrandingImage extends Model<
    InferAttributes<BrandingImage>,
    InferCreationAttributes<BrandingImage>
  > {
    declare kind: BrandingImageKind;
    /** Chosen by the server: random, with the extension of the detected format. */
    declare fileName: string;
    declare originalName: string;
    declare contentType: string;
    declare size: number;
    declare uploadedAt: Date;
    /** The sizes and formats pages send (JSON of src/server/images/variants.ts's ImageVariant[]); null until made. */
    declare variants: string | null;
  }

  BrandingImage.init(
    {
      kind: { type: DataTypes.STRING(20), primaryKey: true },
      fileName: { type: DataTypes.STRING(100), allowNull: false },
      originalName: { type: DataTypes.STRING(255), allowNull: false },
      contentType: { type: DataTypes.STRING(50), allowNull: false },
      size: { type: DataTypes.INTEGER, allowNull: false },
      uploadedAt: { type: DataTypes.DATE, allowNull: false },
      variants: { type: DataTypes.TEXT, allowNull: true },
    },
    { sequelize, tableName: 'branding_images', timestamps: false },
  );

  /** The one row of branding settings. */
  class BrandingSettings extends Model<
    InferAttributes<BrandingSettings>,
    InferCreationAttributes<BrandingSettings>
  > {
    declare id: number;
    declare cardOpacity: CreationOptional<number>;
  }

  BrandingSettings.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      cardOpacity: { type: DataTypes.DOUBLE, allowNull: false, defaultValue: CARD_OPACITY_DEFAULT },
    },
    { sequelize, tableName: 'branding_settings', timestamps: false },
  );

  return { BrandingImage, BrandingSettings };
}

export type BrandingModels = ReturnType<typeof defineBrandingModels>;
