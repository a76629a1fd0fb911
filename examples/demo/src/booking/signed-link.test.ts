// An edited expiry fails the signature.
