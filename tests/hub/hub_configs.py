"""Config files of the hub families as their repositories hold them (copied from the hub's pages through
the search tool; each text's length equals the byte size the hub lists for the file, which the tests
check), and the family tokenizers the token tests build (same model type, normaliser, pre-tokeniser,
post-processor and special tokens as the family's real tokenizer.json, trained on the test strings
because the real vocabularies are megabytes and cannot be fetched here)."""

from __future__ import annotations

import json
import random

# openai/clip-vit-base-patch32 (same text in laion/CLIP-ViT-B-32-laion2B-s34B-b79K): 316 Bytes.
CLIP_PREPROCESSOR_CONFIG = """{
  "crop_size": 224,
  "do_center_crop": true,
  "do_normalize": true,
  "do_resize": true,
  "feature_extractor_type": "CLIPFeatureExtractor",
  "image_mean": [
    0.48145466,
    0.4578275,
    0.40821073
  ],
  "image_std": [
    0.26862954,
    0.26130258,
    0.27577711
  ],
  "resample": 3,
  "size": 224
}
"""

# google/siglip2-base-patch16-224 (mirrored at AXERA-TECH/siglip2-base-patch16-224/tokenizer/): 394 Bytes.
SIGLIP2_PREPROCESSOR_CONFIG = """{
  "do_convert_rgb": null,
  "do_normalize": true,
  "do_rescale": true,
  "do_resize": true,
  "image_mean": [
    0.5,
    0.5,
    0.5
  ],
  "image_processor_type": "SiglipImageProcessor",
  "image_std": [
    0.5,
    0.5,
    0.5
  ],
  "processor_class": "SiglipProcessor",
  "resample": 2,
  "rescale_factor": 0.00392156862745098,
  "size": {
    "height": 224,
    "width": 224
  }
}
"""

# google/owlv2-base-patch16-ensemble (same text in Xenova/owlv2-base-patch16): 425 Bytes.
OWLV2_PREPROCESSOR_CONFIG = """{
  "do_normalize": true,
  "do_pad": true,
  "do_rescale": true,
  "do_resize": true,
  "image_mean": [
    0.48145466,
    0.4578275,
    0.40821073
  ],
  "image_processor_type": "Owlv2ImageProcessor",
  "image_std": [
    0.26862954,
    0.26130258,
    0.27577711
  ],
  "processor_class": "Owlv2Processor",
  "resample": 2,
  "rescale_factor": 0.00392156862745098,
  "size": {
    "height": 960,
    "width": 960
  }
}
"""

# immich-app/ViT-B-32__openai and __laion2b-s34b-b79k visual/preprocess_cfg.json (197 Bytes): OpenCLIP's
# PreprocessCfg as json.dumps writes it. The page shows only the size; this text is the one of that size
# OpenCLIP's exporter writes for ViT-B-32 (OpenAI mean/std, bicubic, shortest).
IMMICH_CLIP_PREPROCESS_CFG = json.dumps(
    {
        "size": [224, 224],
        "mode": "RGB",
        "mean": [0.48145466, 0.4578275, 0.40821073],
        "std": [0.26862954, 0.26130258, 0.27577711],
        "interpolation": "bicubic",
        "resize_mode": "shortest",
        "fill_color": 0,
    }
)

# openai/clip-vit-base-patch32 tokenizer_config.json (as duplicated at T5Forst/clip-vit-base-patch32): 592 Bytes.
CLIP_TOKENIZER_CONFIG = (
    '{"unk_token": {"content": "<|endoftext|>", "single_word": false, "lstrip": false, "rstrip": false, '
    '"normalized": true, "__type": "AddedToken"}, "bos_token": {"content": "<|startoftext|>", "single_word": '
    'false, "lstrip": false, "rstrip": false, "normalized": true, "__type": "AddedToken"}, "eos_token": '
    '{"content": "<|endoftext|>", "single_word": false, "lstrip": false, "rstrip": false, "normalized": true, '
    '"__type": "AddedToken"}, "pad_token": "<|endoftext|>", "add_prefix_space": false, "errors": "replace", '
    '"do_lower_case": true, "name_or_path": "./clip_ViT_B_32/", "model_max_length": 77}'
)

# HuggingFaceTB/SmolVLM-500M-Instruct chat_template.json at dfffb6e7622a286a500146106027bc181c99a80e ("Create
# chat_template.json", 6eccbc1): 429 Bytes (no final newline; SmolVLM2's copies add one: 430).
SMOLVLM_CHAT_TEMPLATE_JSON = (
    '{\n  "chat_template": "<|im_start|>{% for message in messages %}{{message[\'role\'] | capitalize}}'
    "{% if message['content'][0]['type'] == 'image' %}{{':'}}{% else %}{{': '}}{% endif %}"
    "{% for line in message['content'] %}{% if line['type'] == 'text' %}{{line['text']}}"
    "{% elif line['type'] == 'image' %}{{ '<image>' }}{% endif %}{% endfor %}<end_of_utterance>\\n"
    "{% endfor %}{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}\"\n}"
)

# llava-hf/llava-v1.6-mistral-7b-hf chat_template.json, after "support system msg" (8a7baf5) and "Fix typo in
# chat template (assistant EOS token)" (#43: '<\\s> ' became '</s> '): the text OpenVINO GenAI's tokenizer
# keeps for "llava-v1.6-mistral (chat_template.json)" with #43's fix, as transformers' processor prints it
# (stored copies; the hub page itself was not found). The hub lists 694 Bytes; this spelling is 698: the
# newlines inside its string literals may be written as characters there rather than as escapes, which
# Jinja renders the same.
LLAVA16_MISTRAL_CHAT_TEMPLATE_JSON = json.dumps(
    {
        "chat_template": "{% for message in messages %}{% if message['role'] == 'system' %}"
        "{{ '<<SYS>>\\n' + message['content'][0]['text'] + '\\n<</SYS>>\\n\\n' }}"
        "{% elif message['role'] == 'user' %}{{ '[INST] ' }}{# Render all images first #}"
        "{% for content in message['content'] | selectattr('type', 'equalto', 'image') %}{{ '<image>\\n' }}"
        "{% endfor %}{# Render all text next #}"
        "{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}{{ content['text'] }}"
        "{% endfor %}{{' [/INST]' }}{% elif message['role'] == 'assistant' %}"
        "{{ ' ' + message['content'][0]['text'] + '</s> '}}{% else %}"
        "{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}{% endfor %}"
    },
    indent=2,
)

# immich-app/ViT-B-32__openai config.json as commit ad842c0 added it (one line, no final newline): 196 Bytes.
# The manifest pins its sha256, so the loopback hub serves exactly this text for that repository.
IMMICH_VIT_B_32_OPENAI_CONFIG = (
    '{"embed_dim": 512, "vision_cfg": {"image_size": 224, "layers": 12, "width": 768, "patch_size": 32}, '
    '"text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 512, "heads": 8, "layers": 12}}'
)

LISTED_BYTES = {
    "CLIP_PREPROCESSOR_CONFIG": 316,
    "SIGLIP2_PREPROCESSOR_CONFIG": 394,
    "OWLV2_PREPROCESSOR_CONFIG": 425,
    "IMMICH_CLIP_PREPROCESS_CFG": 197,
    "CLIP_TOKENIZER_CONFIG": 592,
    "SMOLVLM_CHAT_TEMPLATE_JSON": 429,
    "IMMICH_VIT_B_32_OPENAI_CONFIG": 196,
}


# ---- test strings ------------------------------------------------------------------------------------
_WORDS = {
    "latin": [
        "red",
        "car",
        "beach",
        "sunset",
        "dog",
        "café",
        "naïve",
        "Zürich",
        "São",
        "Paulo",
        "mountain",
        "river",
        "children",
        "playing",
    ],
    "cyrillic": ["красная", "машина", "пляж", "закат", "собака", "Москва", "река", "горы", "дети", "играют"],
    "cjk": ["赤い車", "海辺の夕日", "犬", "东京塔", "一只猫", "山和河流", "서울의", "밤거리", "孩子们在玩"],
    "arabic": ["سيارة", "حمراء", "شاطئ", "غروب", "الشمس", "كلب", "القاهرة", "نهر", "جبال", "أطفال", "يلعبون"],
    "emoji": ["🐶", "🌅", "🚗", "🏖️", "👨‍👩‍👧", "❤️", "🇯🇵", "🎉"],
}


def mixed_script_strings(n: int = 1000, seed: int = 7) -> list[str]:
    """`n` search-like strings mixing Latin, Cyrillic, CJK, Arabic and emoji, every 50th past 77 tokens."""
    rng = random.Random(seed)
    scripts = list(_WORDS)
    out = []
    for i in range(n):
        k = 1 + (i % 9) if i % 50 else 90  # every 50th string is long: truncation is exercised
        picked = [rng.choice(_WORDS[rng.choice(scripts)]) for _ in range(k)]
        out.append(("  " if i % 7 == 0 else "") + " ".join(picked) + ("!" if i % 5 == 0 else ""))
    return out


# ---- family tokenizers ------------------------------------------------------------------------------
CLIP_SPLIT = (
    r"""<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"""
)


def clip_tokenizer_json(corpus: list[str], vocab_size: int = 3000) -> str:
    """OpenAI CLIP's tokenizer.json structure: byte-level BPE with '</w>' word ends, NFC + whitespace
    collapse + lowercase, CLIP's split regex, <|startoftext|> … <|endoftext|> around every text."""
    from tokenizers import (
        Regex,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
        trainers,
    )

    tok = Tokenizer(
        models.BPE(unk_token="<|endoftext|>", end_of_word_suffix="</w>", continuing_subword_prefix="")
    )
    tok.normalizer = normalizers.Sequence(
        [normalizers.NFC(), normalizers.Replace(Regex(r"\s+"), " "), normalizers.Lowercase()]
    )
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(CLIP_SPLIT), behavior="removed", invert=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<|startoftext|>", "<|endoftext|>"],
        end_of_word_suffix="</w>",
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(corpus, trainer)
    bos, eos = tok.token_to_id("<|startoftext|>"), tok.token_to_id("<|endoftext|>")
    tok.post_processor = processors.RobertaProcessing(("<|endoftext|>", eos), ("<|startoftext|>", bos))
    return tok.to_str()


def xlmr_tokenizer_json(corpus: list[str], vocab_size: int = 3000) -> str:
    """XLM-RoBERTa's (M-CLIP) structure: SentencePiece Unigram with Metaspace '▁', <s> … </s>,
    <s>=0 <pad>=1 </s>=2 <unk>=3."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Strip()])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    trainer = trainers.UnigramTrainer(
        vocab_size=vocab_size,
        special_tokens=["<s>", "<pad>", "</s>", "<unk>"],
        unk_token="<unk>",
        show_progress=False,
    )
    tok.train_from_iterator(corpus, trainer)
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[("<s>", 0), ("</s>", 2)]
    )
    return tok.to_str()


XLMR_TOKENIZER_CONFIG = json.dumps(
    {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "pad_token": "<pad>",
        "unk_token": "<unk>",
        "model_max_length": 77,
    }
)


def gemma_tokenizer_json(corpus: list[str], vocab_size: int = 3000) -> str:
    """SigLIP 2's Gemma tokenizer structure: BPE over '▁'-joined text with byte fallback, no
    pre-tokeniser in the file (SentencePiece trained it word by word: pieces never span a space),
    <pad>=0 <eos>=1 <bos>=2 <unk>=3, <eos> appended (OpenCLIP pads SigLIP text to 64)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True))
    tok.normalizer = normalizers.Replace(" ", "▁")
    tok.pre_tokenizer = pre_tokenizers.Split("▁", behavior="merged_with_next")  # training only
    tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse()])
    byte_tokens = [f"<0x{i:02X}>" for i in range(256)]
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<pad>", "<eos>", "<bos>", "<unk>", *byte_tokens],
        show_progress=False,
    )
    tok.train_from_iterator(corpus, trainer)
    tok.pre_tokenizer = None
    tok.post_processor = processors.TemplateProcessing(single="$A <eos>", special_tokens=[("<eos>", 1)])
    return tok.to_str()


GEMMA_TOKENIZER_CONFIG = json.dumps(
    {
        "bos_token": "<bos>",
        "eos_token": "<eos>",
        "pad_token": "<pad>",
        "unk_token": "<unk>",
        "model_max_length": 64,
    }
)


def nllb_tokenizer_json(corpus: list[str], vocab_size: int = 3000) -> str:
    """NLLB's structure: SentencePiece BPE with Metaspace '▁', FLORES-200 language codes as special
    tokens, </s> appended; <s>=0 <pad>=1 </s>=2 <unk>=3."""
    from tokenizers import (
        AddedToken,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
        trainers,
    )

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=["<s>", "<pad>", "</s>", "<unk>"], show_progress=False
    )
    tok.train_from_iterator(corpus, trainer)
    tok.add_special_tokens([AddedToken(code, special=True) for code in ("eng_Latn", "rus_Cyrl", "jpn_Jpan")])
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 2)])
    return tok.to_str()


NLLB_TOKENIZER_CONFIG = json.dumps(
    {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "pad_token": "<pad>",
        "unk_token": "<unk>",
        "model_max_length": 77,
    }
)
