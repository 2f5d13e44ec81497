// libsecret, GIO and GLib loaded with dlopen: their types are declared here only as far as this
// file uses them (each is part of the libraries' stable ABI), and their functions are looked up by
// name. libsecret-1.so.0 brings GLib, GObject and GIO with it, so every symbol is found through its
// handle.
#define _GNU_SOURCE
#include "CSecretService.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: The types used, from GLib, GIO and libsecret

typedef int gboolean;
typedef char gchar;
typedef uint32_t GQuark;
typedef struct {
    GQuark domain;
    int code;
    gchar *message;
} GError;
typedef struct GHashTable GHashTable;
typedef struct GVariant GVariant;
typedef struct GDBusConnection GDBusConnection;
typedef struct SecretService SecretService;
typedef struct SecretValue SecretValue;
typedef unsigned int (*GHashFunc)(const void *key);
typedef gboolean (*GEqualFunc)(const void *a, const void *b);

enum { G_BUS_TYPE_SESSION = 2 };
enum { G_DBUS_CALL_FLAGS_NONE = 0, G_DBUS_CALL_FLAGS_NO_AUTO_START = 1 };
enum { SECRET_SERVICE_OPEN_SESSION = 1 << 1 };
enum { SECRET_SCHEMA_NONE = 0, SECRET_SCHEMA_ATTRIBUTE_STRING = 0 };
enum { SECRET_ERROR_IS_LOCKED = 2 };

/// What one try of an operation came to.
enum { DONE = 0, RETRY = -1, FAILED = -2 };

// libsecret's SecretSchema, laid out as in secret-schema.h.
typedef struct {
    const gchar *name;
    int type;
} SecretSchemaAttribute;

typedef struct {
    const gchar *name;
    int flags;
    SecretSchemaAttribute attributes[32];
    int reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} SecretSchema;

static const SecretSchema schema = {
    AKS_SCHEMA_NAME,
    SECRET_SCHEMA_NONE,
    {
        {"application", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"folder", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"feature", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"id", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {NULL, 0},
    },
    0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

// MARK: The functions used

#define FUNCTIONS(X) \
    X(GHashTable *, g_hash_table_new, (GHashFunc, GEqualFunc)) \
    X(void, g_hash_table_insert, (GHashTable *, void *, void *)) \
    X(void, g_hash_table_unref, (GHashTable *)) \
    X(unsigned int, g_str_hash, (const void *)) \
    X(gboolean, g_str_equal, (const void *, const void *)) \
    X(void, g_error_free, (GError *)) \
    X(void, g_free, (void *)) \
    X(void, g_strfreev, (gchar **)) \
    X(void, g_object_unref, (void *)) \
    X(GVariant *, g_variant_new_string, (const gchar *)) \
    X(GVariant *, g_variant_new_tuple, (GVariant *const *, unsigned long)) \
    X(GVariant *, g_variant_get_child_value, (GVariant *, unsigned long)) \
    X(GVariant *, g_variant_get_variant, (GVariant *)) \
    X(const gchar *, g_variant_get_type_string, (GVariant *)) \
    X(gboolean, g_variant_get_boolean, (GVariant *)) \
    X(uint32_t, g_variant_get_uint32, (GVariant *)) \
    X(void, g_variant_unref, (GVariant *)) \
    X(GDBusConnection *, g_bus_get_sync, (int, void *, GError **)) \
    X(void, g_dbus_connection_set_exit_on_close, (GDBusConnection *, gboolean)) \
    X(gboolean, g_dbus_connection_is_closed, (GDBusConnection *)) \
    X(GVariant *, g_dbus_connection_call_sync, (GDBusConnection *, const gchar *, const gchar *, const gchar *, \
                                                const gchar *, GVariant *, const void *, int, int, void *, GError **)) \
    X(gboolean, g_dbus_error_strip_remote_error, (GError *)) \
    X(GQuark, secret_error_get_quark, (void)) \
    X(SecretService *, secret_service_get_sync, (int, void *, GError **)) \
    X(void, secret_service_disconnect, (void)) \
    X(gchar *, secret_service_read_alias_dbus_path_sync, (SecretService *, const gchar *, void *, GError **)) \
    X(gboolean, secret_service_search_for_dbus_paths_sync, (SecretService *, const SecretSchema *, GHashTable *, \
                                                            void *, gchar ***, gchar ***, GError **)) \
    X(int, secret_service_unlock_dbus_paths_sync, (SecretService *, const gchar **, void *, gchar ***, GError **)) \
    X(SecretValue *, secret_service_get_secret_for_dbus_path_sync, (SecretService *, const gchar *, void *, GError **)) \
    X(gboolean, secret_service_delete_item_dbus_path_sync, (SecretService *, const gchar *, void *, GError **)) \
    X(gboolean, secret_service_store_sync, (SecretService *, const SecretSchema *, GHashTable *, const gchar *, \
                                            const gchar *, SecretValue *, void *, GError **)) \
    X(SecretValue *, secret_value_new, (const gchar *, long, const gchar *)) \
    X(const gchar *, secret_value_get, (SecretValue *, unsigned long *)) \
    X(void, secret_value_unref, (void *))

#define DECLARE(result, name, parameters) result(*name) parameters;
static struct {
    FUNCTIONS(DECLARE)
} lib;

#define LIBRARY "libsecret-1.so.0"

/// Everything below is used with `lock` held.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/// 0: not tried yet, 1: loaded, -1: could not be loaded (`load_failure` says why).
static int loaded;
static char load_failure[256];
/// The session bus, kept for the life of the process: it is the connection libsecret uses too
/// (GIO keeps one per process), made not to end the process when the bus goes away.
static GDBusConnection *bus;
/// The Secret Service proxy with its session, made again after any failure.
static SecretService *service;

static void set_reason(char *why, size_t size, const char *text) {
    if (why != NULL && size > 0) snprintf(why, size, "%s", text);
}

/// Puts `error`'s message (without GDBus's "GDBus.Error:name: " prefix) in `why` and frees it.
/// Returns RETRY, or FAILED for a locked collection (trying again would only prompt again).
static int take_error(GError *error, const char *fallback, char *why, size_t size) {
    if (error == NULL) {
        set_reason(why, size, fallback);
        return RETRY;
    }
    int locked = error->domain == lib.secret_error_get_quark() && error->code == SECRET_ERROR_IS_LOCKED;
    lib.g_dbus_error_strip_remote_error(error);
    set_reason(why, size, error->message != NULL && error->message[0] != 0 ? error->message : fallback);
    lib.g_error_free(error);
    return locked ? FAILED : RETRY;
}

static int load_library(char *why, size_t size) {
    if (loaded == 0) {
        void *handle = dlopen(LIBRARY, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(load_failure, sizeof load_failure, "%s", reason != NULL ? reason : LIBRARY " could not be loaded");
            loaded = -1;
        } else {
            loaded = 1;
#define LOOK_UP(result, name, parameters) \
            if (loaded == 1) { \
                *(void **)(&lib.name) = dlsym(handle, #name); \
                if (lib.name == NULL) { \
                    snprintf(load_failure, sizeof load_failure, LIBRARY " has no %s", #name); \
                    loaded = -1; \
                } \
            }
            FUNCTIONS(LOOK_UP)
        }
    }
    if (loaded < 0) set_reason(why, size, load_failure);
    return loaded;
}

/// Forgets the service proxy (and libsecret's own), so the next call opens a new session: after a
/// failure the service may have gone, or been restarted with none of the old sessions.
static void reset_service(void) {
    if (service != NULL) {
        lib.g_object_unref(service);
        service = NULL;
    }
    lib.secret_service_disconnect();
}

static int ensure_service(char *why, size_t size) {
    if (bus != NULL && lib.g_dbus_connection_is_closed(bus)) {
        set_reason(why, size, "the session bus has closed the connection");
        return -1;
    }
    if (service != NULL) return 0;
    GError *error = NULL;
    service = lib.secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, NULL, &error);
    if (service == NULL) {
        take_error(error, "the Secret Service could not be opened", why, size);
        lib.secret_service_disconnect();
        return -1;
    }
    return 0;
}

/// Calls a method on the bus; returns the reply if its type is `type`, else NULL with `why`.
static GVariant *call(const char *destination, const char *path, const char *interface, const char *method,
                      GVariant *parameters, const char *type, char *why, size_t size) {
    GError *error = NULL;
    GVariant *reply = lib.g_dbus_connection_call_sync(bus, destination, path, interface, method, parameters, NULL,
                                                      G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, NULL, &error);
    if (reply == NULL) {
        take_error(error, "no reply", why, size);
        return NULL;
    }
    if (strcmp(lib.g_variant_get_type_string(reply), type) != 0) {
        snprintf(why, size, "%s answered %s, not %s", method, lib.g_variant_get_type_string(reply), type);
        lib.g_variant_unref(reply);
        return NULL;
    }
    return reply;
}

static GVariant *string_arguments(const char *first, const char *second) {
    GVariant *values[2] = {lib.g_variant_new_string(first), second != NULL ? lib.g_variant_new_string(second) : NULL};
    return lib.g_variant_new_tuple(values, second != NULL ? 2 : 1);
}

static GVariant *first_child(GVariant *reply) {
    GVariant *child = lib.g_variant_get_child_value(reply, 0);
    lib.g_variant_unref(reply);
    return child;
}

aks_status aks_connect(aks_service_info *info, char *why, size_t why_size) {
    info->pid = 0;
    info->locked = 0;
    pthread_mutex_lock(&lock);
    aks_status status = AKS_READY;
    char reason[512] = "";
    if (load_library(reason, sizeof reason) < 0) {
        status = AKS_NO_LIBRARY;
        goto done;
    }
    if (bus == NULL) {
        GError *error = NULL;
        bus = lib.g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
        if (bus == NULL) {
            take_error(error, "the session bus could not be reached", reason, sizeof reason);
            status = AKS_NO_BUS;
            goto done;
        }
        // GIO's shared connection ends the process (SIGTERM) when the bus goes away; a keyring is
        // not worth that.
        lib.g_dbus_connection_set_exit_on_close(bus, 0);
    }
    if (lib.g_dbus_connection_is_closed(bus)) {
        set_reason(reason, sizeof reason, "the session bus has closed the connection");
        status = AKS_NO_BUS;
        goto done;
    }
    GVariant *owned = call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                           string_arguments("org.freedesktop.secrets", NULL), "(b)", reason, sizeof reason);
    if (owned == NULL) {
        status = AKS_NO_BUS;
        goto done;
    }
    GVariant *flag = first_child(owned);
    gboolean running = lib.g_variant_get_boolean(flag);
    lib.g_variant_unref(flag);
    if (!running) {
        set_reason(reason, sizeof reason, "nothing owns org.freedesktop.secrets on the session bus");
        status = AKS_NO_SERVICE;
        goto done;
    }
    char ignored[256];
    GVariant *pid = call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                         "GetConnectionUnixProcessID", string_arguments("org.freedesktop.secrets", NULL), "(u)",
                         ignored, sizeof ignored);
    if (pid != NULL) {
        GVariant *number = first_child(pid);
        info->pid = lib.g_variant_get_uint32(number);
        lib.g_variant_unref(number);
    }
    if (ensure_service(reason, sizeof reason) != 0) {
        status = AKS_FAILED;
        goto done;
    }
    GError *error = NULL;
    gchar *collection = lib.secret_service_read_alias_dbus_path_sync(service, "default", NULL, &error);
    if (collection == NULL) {
        if (error != NULL) {
            take_error(error, "the default collection could not be read", reason, sizeof reason);
            reset_service();
            status = AKS_FAILED;
        } else {
            set_reason(reason, sizeof reason, "the Secret Service has no default collection");
            status = AKS_NO_DEFAULT_COLLECTION;
        }
        goto done;
    }
    GVariant *locked = call("org.freedesktop.secrets", collection, "org.freedesktop.DBus.Properties", "Get",
                            string_arguments("org.freedesktop.Secret.Collection", "Locked"), "(v)",
                            ignored, sizeof ignored);
    lib.g_free(collection);
    if (locked != NULL) {
        GVariant *boxed = first_child(locked);
        GVariant *value = lib.g_variant_get_variant(boxed);
        lib.g_variant_unref(boxed);
        if (strcmp(lib.g_variant_get_type_string(value), "b") == 0) info->locked = lib.g_variant_get_boolean(value);
        lib.g_variant_unref(value);
    }
done:
    pthread_mutex_unlock(&lock);
    if (status != AKS_READY) set_reason(why, why_size, reason);
    return status;
}

/// The attributes as libsecret takes them: a table that borrows the strings.
static GHashTable *attribute_table(const char *const *attributes) {
    GHashTable *table = lib.g_hash_table_new(lib.g_str_hash, lib.g_str_equal);
    for (size_t index = 0; attributes[index] != NULL && attributes[index + 1] != NULL; index += 2) {
        lib.g_hash_table_insert(table, (void *)attributes[index], (void *)attributes[index + 1]);
    }
    return table;
}

/// The items under `table`, unlocked: those already unlocked, and the locked ones after an unlock
/// (which may prompt). Returns DONE with `*paths` (free with g_strfreev), else RETRY or FAILED
/// with `why` (a locked item that stays locked: FAILED).
static int unlocked_items(GHashTable *table, gchar ***paths, char *why, size_t size) {
    gchar **unlocked = NULL;
    gchar **locked = NULL;
    GError *error = NULL;
    *paths = NULL;
    if (!lib.secret_service_search_for_dbus_paths_sync(service, &schema, table, NULL, &unlocked, &locked, &error)) {
        return take_error(error, "the keyring could not be searched", why, size);
    }
    if (locked != NULL && locked[0] != NULL) {
        gchar **opened = NULL;
        lib.secret_service_unlock_dbus_paths_sync(service, (const gchar **)locked, NULL, &opened, &error);
        size_t wanted = 0, got = 0;
        while (locked[wanted] != NULL) wanted++;
        while (opened != NULL && opened[got] != NULL) got++;
        lib.g_strfreev(opened);
        lib.g_strfreev(unlocked);
        lib.g_strfreev(locked);
        if (error != NULL || got < wanted) {
            int outcome = take_error(error, "the keyring is locked and was not unlocked", why, size);
            return error == NULL ? FAILED : outcome;
        }
        // Unlocked now: search again for the whole list.
        unlocked = NULL;
        locked = NULL;
        if (!lib.secret_service_search_for_dbus_paths_sync(service, &schema, table, NULL, &unlocked, &locked, &error)) {
            return take_error(error, "the keyring could not be searched", why, size);
        }
        if (locked != NULL && locked[0] != NULL) {
            set_reason(why, size, "the keyring is locked and was not unlocked");
            lib.g_strfreev(unlocked);
            lib.g_strfreev(locked);
            return FAILED;
        }
    }
    lib.g_strfreev(locked);
    *paths = unlocked;
    return DONE;
}

typedef struct {
    const char *const *attributes;
    const char *label;
    const char *secret;
    char **found;
    size_t *length;
    int *removed;
} request;

static int store_once(GHashTable *table, const request *request, char *why, size_t size) {
    SecretValue *value = lib.secret_value_new(request->secret, -1, "text/plain");
    GError *error = NULL;
    int outcome = DONE;
    if (!lib.secret_service_store_sync(service, &schema, table, NULL, request->label, value, NULL, &error)) {
        outcome = take_error(error, "libsecret refused to store the item", why, size);
    }
    lib.secret_value_unref(value);
    return outcome;
}

static int lookup_once(GHashTable *table, const request *request, char *why, size_t size) {
    gchar **paths = NULL;
    int outcome = unlocked_items(table, &paths, why, size);
    if (outcome == DONE && paths != NULL && paths[0] != NULL) {
        GError *error = NULL;
        SecretValue *value = lib.secret_service_get_secret_for_dbus_path_sync(service, paths[0], NULL, &error);
        if (value == NULL) {
            outcome = take_error(error, "the keyring gave no secret for the item", why, size);
        } else {
            unsigned long length = 0;
            const gchar *bytes = lib.secret_value_get(value, &length);
            char *copy = malloc(length + 1);
            if (copy == NULL) {
                set_reason(why, size, "out of memory");
                outcome = FAILED;
            } else {
                memcpy(copy, bytes, length);
                copy[length] = 0;
                *request->found = copy;
                *request->length = length;
            }
            lib.secret_value_unref(value);
        }
    }
    lib.g_strfreev(paths);
    return outcome;
}

static int clear_once(GHashTable *table, const request *request, char *why, size_t size) {
    gchar **paths = NULL;
    int outcome = unlocked_items(table, &paths, why, size);
    for (size_t index = 0; outcome == DONE && paths != NULL && paths[index] != NULL; index++) {
        GError *error = NULL;
        if (lib.secret_service_delete_item_dbus_path_sync(service, paths[index], NULL, &error)) {
            *request->removed += 1;
        } else {
            outcome = take_error(error, "the keyring did not delete the item", why, size);
        }
    }
    lib.g_strfreev(paths);
    return outcome;
}

/// Runs `once` with the lock held and the service open. A failure with a service opened by an
/// earlier call is tried once more on a new one: the service may have been restarted since
/// (its sessions gone with it). A locked collection is not tried again: that would prompt again.
static int perform(int (*once)(GHashTable *, const request *, char *, size_t), const request *request,
                   char *why, size_t size) {
    pthread_mutex_lock(&lock);
    int outcome = FAILED;
    if (load_library(why, size) < 0) goto done;
    if (bus == NULL) {
        set_reason(why, size, "the keyring was never connected");
        goto done;
    }
    GHashTable *table = attribute_table(request->attributes);
    for (int attempt = 0; attempt < 2; attempt++) {
        int fresh = service == NULL;
        if (ensure_service(why, size) != 0) {
            outcome = FAILED;
            break;
        }
        outcome = once(table, request, why, size);
        if (outcome == DONE) break;
        reset_service();
        if (outcome == FAILED || fresh) break;
    }
    lib.g_hash_table_unref(table);
done:
    pthread_mutex_unlock(&lock);
    return outcome == DONE ? 0 : -1;
}

int aks_store(const char *const *attributes, const char *label, const char *secret, char *why, size_t why_size) {
    request request = {attributes, label, secret, NULL, NULL, NULL};
    return perform(store_once, &request, why, why_size);
}

int aks_lookup(const char *const *attributes, char **secret, size_t *length, char *why, size_t why_size) {
    *secret = NULL;
    *length = 0;
    request request = {attributes, NULL, NULL, secret, length, NULL};
    int result = perform(lookup_once, &request, why, why_size);
    return result < 0 ? -1 : *secret != NULL ? 1 : 0;
}

int aks_clear(const char *const *attributes, int *removed, char *why, size_t why_size) {
    *removed = 0;
    request request = {attributes, NULL, NULL, NULL, NULL, removed};
    return perform(clear_once, &request, why, why_size);
}

void aks_free_secret(char *secret, size_t length) {
    if (secret == NULL) return;
    volatile char *bytes = secret;
    for (size_t index = 0; index < length; index++) bytes[index] = 0;
    free(secret);
}
