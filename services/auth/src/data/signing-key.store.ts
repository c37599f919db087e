import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKey, privateKeyPem, signingKeyFromPem } from '@crm/server-kit';
import type { SigningKeyStore, StoredSigningKey } from '../domain/signing-key-ring';
import type { SecretBox } from './secret-box';

interface SigningKeyDocument {
  /** The key id (thumbprint of the public key). */
  _id: string;
  generation: number;
  createdAt: Date;
  /** The private key (PKCS8 PEM), sealed with the auth service's at-rest key. */
  sealedPrivateKey: string;
}

const signingKeySchema = new Schema<SigningKeyDocument>(
  {
    _id: { type: String, required: true },
    generation: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    sealedPrivateKey: { type: String, required: true },
  },
  { collection: 'signing_keys', versionKey: false },
);
// One key per generation: two replicas rotating at once cannot both make a current key.
signingKeySchema.index({ generation: 1 }, { unique: true });

/** The token signing keys in the auth service's database (collection `signing_keys`). */
export class MongoSigningKeyStore implements SigningKeyStore {
  private readonly model: Model<SigningKeyDocument>;

  constructor(
    connection: Connection,
    private readonly box: SecretBox,
  ) {
    this.model =
      (connection.models.SigningKey as Model<SigningKeyDocument> | undefined) ??
      connection.model<SigningKeyDocument>('SigningKey', signingKeySchema);
  }

  async list(): Promise<StoredSigningKey[]> {
    const documents = await this.model.find().sort({ generation: -1 }).lean();
    return documents.map((document) => {
      const key = signingKeyFromPem(this.box.open(document.sealedPrivateKey));
      if (key.kid !== document._id) throw new Error(`signing key ${document._id} does not match its id`);
      return { key, generation: document.generation, createdAt: document.createdAt };
    });
  }

  async add({ key, generation, createdAt }: StoredSigningKey): Promise<boolean> {
    try {
      await this.model.create({
        _id: key.kid,
        generation,
        createdAt,
        sealedPrivateKey: this.box.seal(privateKeyPem(key)),
      });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async remove(kids: readonly string[]): Promise<void> {
    await this.model.deleteMany({ _id: { $in: kids } });
  }
}
