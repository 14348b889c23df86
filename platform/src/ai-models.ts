import type pg from 'pg';

export type ListedAiModel = Readonly<{ id: string; provider: 'openai' | 'anthropic' }>;

/**
 * The models the configured AI providers list (api.md "The AI assistant": a chat's model
 * may be "any model a configured provider lists"). The assistant's reactor asks the
 * providers at its start and keeps the answer here; write-api accepts those names for a
 * chat, and read-api offers them to the chat's model picker.
 */
export const aiModelCatalog = {
  async save(pool: pg.Pool, models: readonly ListedAiModel[]): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('delete from platform.ai_models');
      if (models.length > 0) {
        await client.query(
          'insert into platform.ai_models (id, provider) select * from unnest($1::text[], $2::text[]) on conflict do nothing',
          [models.map((m) => m.id), models.map((m) => m.provider)],
        );
      }
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  },

  async list(pool: pg.Pool): Promise<ListedAiModel[]> {
    const { rows } = await pool.query<ListedAiModel>(
      'select id, provider from platform.ai_models order by provider, id',
    );
    return rows;
  },
};
