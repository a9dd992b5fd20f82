"""The sample gallery: small functions, each showing one capability of modetrace."""
