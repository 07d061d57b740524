"""What people already wrote into their photos (EXIF, IPTC, XMP in the file and in XMP sidecars):
read through libexiv2 (pyexiv2), turned into catalog facts by the `embedded` analyzer, and, when the
user opts in, what they do in PhotoSearch written back into XMP sidecars (never into the photo)."""
