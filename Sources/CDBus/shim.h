// libdbus, the D-Bus reference library, which the accessibility bridge speaks
// AT-SPI2 through, with its type codes as constants (the headers define them
// as cast expressions, which Swift does not import).
#ifndef STRATA_CDBUS_SHIM_H
#define STRATA_CDBUS_SHIM_H

#include <dbus/dbus.h>

static const int strata_dbus_type_invalid = DBUS_TYPE_INVALID;
static const int strata_dbus_type_byte = DBUS_TYPE_BYTE;
static const int strata_dbus_type_boolean = DBUS_TYPE_BOOLEAN;
static const int strata_dbus_type_int16 = DBUS_TYPE_INT16;
static const int strata_dbus_type_int32 = DBUS_TYPE_INT32;
static const int strata_dbus_type_uint32 = DBUS_TYPE_UINT32;
static const int strata_dbus_type_int64 = DBUS_TYPE_INT64;
static const int strata_dbus_type_double = DBUS_TYPE_DOUBLE;
static const int strata_dbus_type_string = DBUS_TYPE_STRING;
static const int strata_dbus_type_object_path = DBUS_TYPE_OBJECT_PATH;
static const int strata_dbus_type_signature = DBUS_TYPE_SIGNATURE;
static const int strata_dbus_type_array = DBUS_TYPE_ARRAY;
static const int strata_dbus_type_variant = DBUS_TYPE_VARIANT;
static const int strata_dbus_type_struct = DBUS_TYPE_STRUCT;
static const int strata_dbus_type_dict_entry = DBUS_TYPE_DICT_ENTRY;

/// A method call's reply (`dbus_message_new_method_return`), or an error
/// reply named `name` when it is not NULL.
static inline DBusMessage *strata_dbus_reply(DBusMessage *call, const char *name, const char *text) {
    return name ? dbus_message_new_error(call, name, text) : dbus_message_new_method_return(call);
}

#endif
