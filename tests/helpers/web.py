"""What the web tests share."""

TOKEN = "s3cret-token"
