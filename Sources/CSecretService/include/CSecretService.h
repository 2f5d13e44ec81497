// The desktop keyring (the Secret Service, over D-Bus) for AppletState's `SecureState`, through
// libsecret loaded at run time: building needs no libsecret, GLib or D-Bus headers or libraries,
// and a program runs the same where none is installed (the caller keeps secrets in files then).
// Only plain C types cross this boundary; libsecret's and GLib's types stay in the .c file.
//
// Every function is safe to call from any thread; calls are serialized inside. Each item carries
// the attributes `application`, `folder`, `feature` and `id`, plus the `xdg:schema` attribute
// libsecret adds (`org.appletkit.SecureState`). `attributes` arguments are NULL-terminated arrays
// of name, value, name, value, ... with exactly those four names.
#ifndef CSECRETSERVICE_H
#define CSECRETSERVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `aks_connect` found.
typedef enum {
    /// A Secret Service runs on the session bus and has a default collection.
    AKS_READY = 0,
    /// libsecret-1.so.0 (or a function in it) could not be loaded.
    AKS_NO_LIBRARY = 1,
    /// The session bus could not be reached.
    AKS_NO_BUS = 2,
    /// Nobody owns org.freedesktop.secrets on the session bus (nothing is started for it).
    AKS_NO_SERVICE = 3,
    /// The service has no default collection: making one would need a prompt.
    AKS_NO_DEFAULT_COLLECTION = 4,
    /// The service did not answer as it should.
    AKS_FAILED = 5,
} aks_status;

/// What `aks_connect` learnt about the service.
typedef struct {
    /// The process that owns org.freedesktop.secrets (0 when the bus would not say).
    unsigned int pid;
    /// Whether the default collection is locked now (using it may then ask for its password).
    int locked;
} aks_service_info;

/// The schema name libsecret stores in each item's `xdg:schema` attribute.
#define AKS_SCHEMA_NAME "org.appletkit.SecureState"

/// Loads libsecret (once), connects to the session bus (once; the connection never ends the
/// process when the bus goes away) and checks that a Secret Service runs there now, without
/// starting one, and that it has a default collection. `why` gets a reason when the result is not
/// `AKS_READY`. Never prompts.
aks_status aks_connect(aks_service_info *info, char *why, size_t why_size);

/// Stores `secret` (UTF-8 text) under `attributes` in the default collection with `label`,
/// replacing an item with the same attributes. Returns 0, or -1 with a reason in `why`. A locked
/// collection is unlocked first, which may prompt.
int aks_store(const char *const *attributes, const char *label, const char *secret, char *why, size_t why_size);

/// Looks up the secret under `attributes`. Returns 1 with `*secret` (free it with
/// `aks_free_secret`) and `*length`, 0 when there is none, or -1 with a reason in `why` (a locked
/// item that could not be unlocked is a failure, never "none").
int aks_lookup(const char *const *attributes, char **secret, size_t *length, char *why, size_t why_size);

/// Removes every item under `attributes`. Returns 0 (with `*removed`, how many), or -1 with a
/// reason in `why` (a locked item that could not be unlocked is a failure).
int aks_clear(const char *const *attributes, int *removed, char *why, size_t why_size);

/// Overwrites and frees a secret returned by `aks_lookup`.
void aks_free_secret(char *secret, size_t length);

#ifdef __cplusplus
}
#endif

#endif
