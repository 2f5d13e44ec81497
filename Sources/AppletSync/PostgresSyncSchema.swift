/// The server side of sync: two tables and a function, made at the first connection if missing
/// (under an advisory lock, so instances starting together do not race), and the channel every
/// instance listens on. Docs/PersistentState.md shows them to people.
enum PostgresSyncSchema {
    /// The `NOTIFY` channel.
    static let channel = "appletkit_sync"

    /// The schema's version, kept as the table's comment: a newer one replaces the function.
    static let version = "appletkit sync, schema 1"

    /// One statement (a `DO` block), run at every connection: a few microseconds once it exists.
    static let setup = """
        DO $setup$
        BEGIN
            PERFORM pg_advisory_xact_lock(hashtext('appletkit_sync schema'));
            IF to_regclass('appletkit_sync') IS NOT NULL
               AND obj_description(to_regclass('appletkit_sync'), 'pg_class') = '\(version)'
               AND to_regprocedure('appletkit_sync_put(text,text,text,json,bigint,text,text)') IS NOT NULL THEN
                RETURN;
            END IF;

            -- One row per value: the app, the value's feature and id, its JSON (NULL: reset to its
            -- initial value), its version (one more at every write), the server's clock when it
            -- was written, and who wrote it (a state folder's id, and a host name for people).
            CREATE TABLE IF NOT EXISTS appletkit_sync (
                app text NOT NULL,
                feature text NOT NULL,
                id text NOT NULL,
                value json,
                version bigint NOT NULL,
                updated_at timestamptz NOT NULL,
                writer text NOT NULL,
                writer_name text NOT NULL,
                PRIMARY KEY (app, feature, id)
            );

            -- Writes that replaced one they had not seen: kept until the writer whose value lost
            -- has been told (it deletes the row when it has).
            CREATE TABLE IF NOT EXISTS appletkit_sync_conflicts (
                serial bigserial PRIMARY KEY,
                app text NOT NULL,
                feature text NOT NULL,
                id text NOT NULL,
                lost_value json,
                lost_version bigint NOT NULL,
                lost_at timestamptz NOT NULL,
                lost_writer text NOT NULL,
                lost_writer_name text NOT NULL,
                won_value json,
                won_version bigint NOT NULL,
                won_at timestamptz NOT NULL,
                won_writer text NOT NULL,
                won_writer_name text NOT NULL
            );
            CREATE INDEX IF NOT EXISTS appletkit_sync_conflicts_loser ON appletkit_sync_conflicts (app, lost_writer);

            -- A write: the value, made on the version p_base. Under the row's lock: the same value
            -- again changes nothing; else the version goes up by one and updated_at is the server's
            -- clock (never earlier than the last write's), so the later write in the server's
            -- order is the one every instance keeps. A write made on an older version than the
            -- row's, over someone else's value, is a conflict: recorded, and returned to the writer.
            -- Every instance hears of the write on the channel, with the value when it fits.
            CREATE OR REPLACE FUNCTION appletkit_sync_put(
                p_app text, p_feature text, p_id text, p_value json, p_base bigint, p_writer text, p_writer_name text)
            RETURNS TABLE (r_version bigint, r_micros bigint, r_lost_value text, r_lost_micros bigint, r_lost_writer_name text)
            LANGUAGE plpgsql AS $put$
            #variable_conflict use_column
            DECLARE
                cur appletkit_sync%ROWTYPE;
                stamp timestamptz;
                conflict boolean;
                payload text;
            BEGIN
                INSERT INTO appletkit_sync (app, feature, id, value, version, updated_at, writer, writer_name)
                    VALUES (p_app, p_feature, p_id, NULL, 0, '-infinity', '', '')
                    ON CONFLICT DO NOTHING;
                SELECT * INTO cur FROM appletkit_sync s
                    WHERE s.app = p_app AND s.feature = p_feature AND s.id = p_id FOR UPDATE;
                IF cur.value::text IS NOT DISTINCT FROM p_value::text THEN
                    RETURN QUERY SELECT cur.version,
                        CASE WHEN cur.version = 0 THEN 0::bigint ELSE (extract(epoch FROM cur.updated_at) * 1000000)::bigint END,
                        NULL::text, NULL::bigint, NULL::text;
                    RETURN;
                END IF;
                stamp := greatest(clock_timestamp(), cur.updated_at + interval '1 microsecond');
                conflict := cur.version > 0 AND p_base < cur.version AND cur.writer <> p_writer;
                UPDATE appletkit_sync s SET value = p_value, version = cur.version + 1, updated_at = stamp,
                        writer = p_writer, writer_name = p_writer_name
                    WHERE s.app = p_app AND s.feature = p_feature AND s.id = p_id;
                IF conflict THEN
                    INSERT INTO appletkit_sync_conflicts (app, feature, id, lost_value, lost_version, lost_at, lost_writer,
                            lost_writer_name, won_value, won_version, won_at, won_writer, won_writer_name)
                        VALUES (p_app, p_feature, p_id, cur.value, cur.version, cur.updated_at, cur.writer,
                            cur.writer_name, p_value, cur.version + 1, stamp, p_writer, p_writer_name);
                END IF;
                payload := json_build_object('a', p_app, 'f', p_feature, 'i', p_id, 'v', cur.version + 1,
                    't', (extract(epoch FROM stamp) * 1000000)::bigint, 'w', p_writer, 'n', p_writer_name,
                    'c', CASE WHEN conflict THEN cur.writer END, 'x', p_value)::text;
                IF octet_length(payload) > 7900 THEN
                    payload := json_build_object('a', p_app, 'f', p_feature, 'i', p_id, 'v', cur.version + 1,
                        't', (extract(epoch FROM stamp) * 1000000)::bigint, 'w', p_writer, 'n', p_writer_name,
                        'c', CASE WHEN conflict THEN cur.writer END, 'big', true)::text;
                END IF;
                PERFORM pg_notify('\(channel)', payload);
                RETURN QUERY SELECT cur.version + 1, (extract(epoch FROM stamp) * 1000000)::bigint,
                    CASE WHEN conflict THEN cur.value::text END,
                    CASE WHEN conflict THEN (extract(epoch FROM cur.updated_at) * 1000000)::bigint END,
                    CASE WHEN conflict THEN cur.writer_name END;
            END
            $put$;

            COMMENT ON TABLE appletkit_sync IS '\(version)';
        END
        $setup$
        """
}
